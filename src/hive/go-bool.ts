// Hive reads most boolean annotations with Go's strconv.ParseBool (REFERENCE.md conventions); anything it does not
// accept is an error there, which Hive treats as false.
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** True exactly when Go's `strconv.ParseBool(value)` returns true. */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && TRUE.has(value);
}
