// What a drill reports: of the actions it expected, how many happened, how many happened more than once, and how many
// never did. Actions are named by a key (a cluster's name, a claim's...); `observed` holds one key per time an
// action was seen (an Event, a delivery, an object), so a key seen twice is a duplicate.

export interface Tally {
  expected: number;
  done: number;
  /** Extra times expected actions happened (a key seen three times adds two). */
  duplicated: number;
  lost: number;
  /** Actions seen that nobody expected. */
  unexpected: number;
  /** The first few lost, duplicated and unexpected keys, for the failure message. */
  examples: { lost: string[]; duplicated: string[]; unexpected: string[] };
}

export function tally(expected: Iterable<string>, observed: Iterable<string>): Tally {
  const want = new Set(expected);
  const seen = new Map<string, number>();
  for (const key of observed) seen.set(key, (seen.get(key) ?? 0) + 1);
  const lost = [...want].filter((k) => !seen.has(k));
  const duplicated = [...want].filter((k) => (seen.get(k) ?? 0) > 1);
  const unexpected = [...seen.keys()].filter((k) => !want.has(k));
  return {
    expected: want.size,
    done: want.size - lost.length,
    duplicated: duplicated.reduce((n, k) => n + seen.get(k)! - 1, 0),
    lost: lost.length,
    unexpected: unexpected.length,
    examples: { lost: lost.slice(0, 5), duplicated: duplicated.slice(0, 5), unexpected: unexpected.slice(0, 5) },
  };
}
