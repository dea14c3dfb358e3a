// Command-line parsing helpers on node:util parseArgs: durations, selectors, object ids, usage errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how the command was called: exit code 2 with the usage. */
export class UsageError extends Error {}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `45m`, `2h`, `1h30m`, `90s`, or plain seconds (`600`), to milliseconds. */
export function parseCliDuration(text: string, flag: string): number {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text))
    throw new UsageError(`${flag}: "${text}" is not a duration such as 45m, 2h or 90s`);
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) ms += Number(n) * UNITS[unit!]!;
  return ms;
}

const SELECTOR_KEYS = new Set(['hub', 'platform', 'region', 'version', 'architecture', 'owner', 'team']);

/** `--selector platform=aws,version=4.14 --selector tier=ci` -> the API's selector (unknown keys are pool labels). */
export function parseSelector(values: string[]): Record<string, unknown> {
  const selector: Record<string, unknown> = {};
  const labels: Record<string, string> = {};
  for (const pair of values.flatMap((v) => v.split(','))) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--selector: "${pair}" is not key=value`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const canonical = key === 'arch' ? 'architecture' : key;
    if (SELECTOR_KEYS.has(canonical)) selector[canonical] = value;
    else labels[key] = value;
  }
  if (Object.keys(labels).length) selector.labels = labels;
  return selector;
}

/** `hub/namespace/name`, as every claim and cluster is addressed. */
export function parseId(text: string | undefined, what: string): string {
  if (!text) throw new UsageError(`give the ${what} as hub/namespace/name`);
  const parts = text.split('/');
  if (parts.length !== 3 || parts.some((p) => !p))
    throw new UsageError(`"${text}" is not a ${what} id: use hub/namespace/name`);
  return parts.map(encodeURIComponent).join('/');
}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
