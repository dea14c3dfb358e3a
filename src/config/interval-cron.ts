// A period in seconds as a node-cron pattern. Slots start on whole multiples of the period (a 60 s resync runs at
// every minute's second 0), so every replica names the same slot the same and a coordinator can hand it to one.
// Only periods that divide the minute, the hour or the day evenly have such slots.

const DIVISORS_OF_60 = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30];
const DIVISORS_OF_24 = [1, 2, 3, 4, 6, 8, 12, 24];

export function intervalCron(seconds: number): string | undefined {
  if (DIVISORS_OF_60.includes(seconds)) return `*/${seconds} * * * * *`;
  if (seconds % 60 === 0 && DIVISORS_OF_60.includes(seconds / 60)) return `0 */${seconds / 60} * * * *`;
  if (seconds === 3600) return '0 0 * * * *';
  if (seconds % 3600 === 0 && DIVISORS_OF_24.includes(seconds / 3600)) return `0 0 */${seconds / 3600} * * *`;
  return undefined;
}

export const INTERVAL_RULE =
  'a number of seconds that divides a minute (1-30), whole minutes that divide an hour (60-1800), or whole hours that divide a day (3600-86400)';
