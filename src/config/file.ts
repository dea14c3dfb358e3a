// The optional YAML configuration file (BEEKEEPER_CONFIG=path). Keys mirror Config; unknown keys are reported
// rather than ignored, because a typo such as `concurency` would otherwise silently fall back to a default.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Issues, Source } from './fields.js';

type Shape = { [key: string]: Shape | 'leaf' };

const KNOWN: Shape = {
  hubs: 'leaf',
  redis: { url: 'leaf', password: 'leaf', prefix: 'leaf', sentinel: { sentinels: 'leaf', name: 'leaf', password: 'leaf' }, cluster: { nodes: 'leaf' } },
  http: { host: 'leaf', port: 'leaf' },
  auth: { tokens: 'leaf' },
  concurrency: { perHub: 'leaf', global: 'leaf', background: 'leaf', backgroundGlobal: 'leaf' },
  rateLimits: { qps: 'leaf', burst: 'leaf' },
  logLevel: 'leaf',
  sim: { speed: 'leaf', seed: 'leaf' },
  stateNamespace: 'leaf',
  stateHub: 'leaf',
  jobs: {
    lockDurationMs: 'leaf',
    stalledIntervalMs: 'leaf',
    keepCompletedSeconds: 'leaf',
    keepCompletedCount: 'leaf',
    keepFailedSeconds: 'leaf',
    keepFailedCount: 'leaf',
    shutdownGraceMs: 'leaf',
  },
  resync: { intervalSeconds: 'leaf' },
};

export interface FileLayer {
  /** The raw value at a dotted path, tagged with where it came from. */
  at(path: string): Source | undefined;
}

export function readConfigFile(path: string | undefined, issues: Issues): FileLayer {
  if (!path) return { at: () => undefined };
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (err) {
    issues.add('BEEKEEPER_CONFIG', `cannot read ${path}: ${(err as Error).message.split('\n')[0]}`);
    return { at: () => undefined };
  }
  if (doc === null || doc === undefined) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    issues.add('BEEKEEPER_CONFIG', `${path} must hold a YAML mapping`);
    return { at: () => undefined };
  }
  checkKeys(doc as Record<string, unknown>, KNOWN, '', issues, path);
  return {
    at(dotted) {
      let cur: unknown = doc;
      for (const key of dotted.split('.')) {
        if (cur === null || typeof cur !== 'object') return undefined;
        cur = (cur as Record<string, unknown>)[key];
      }
      return cur === undefined || cur === null ? undefined : { value: cur, from: `${dotted} (${path})` };
    },
  };
}

function checkKeys(obj: Record<string, unknown>, shape: Shape, prefix: string, issues: Issues, file: string) {
  for (const [key, value] of Object.entries(obj)) {
    const where = prefix + key;
    const known = shape[key];
    if (known === undefined) issues.add(`${where} (${file})`, 'unknown key');
    else if (known !== 'leaf') {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) issues.add(`${where} (${file})`, 'must be a mapping');
      else checkKeys(value as Record<string, unknown>, known, `${where}.`, issues, file);
    }
  }
}
