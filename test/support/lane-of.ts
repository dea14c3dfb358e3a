// The two lanes of the suite (test/support/lanes.ts): the drills, which mostly wait, and the rest.
export type Lane = 'drills' | 'rest';

/** The lane of a test file, from its path relative to the repository. */
export function laneOf(file: string): Lane {
  return file.replace(/\\/g, '/').startsWith('test/drills/') ? 'drills' : 'rest';
}
