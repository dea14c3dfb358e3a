// The HTTP exchanges recorded from a real kube-apiserver with the Hive CRDs: test/fixtures/kube-golden (its
// SOURCE.md says where they came from, README.md what each shows and which values are volatile).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const goldenDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/kube-golden');

export interface Golden {
  title: string;
  request: { method: string; path: string; headers: Record<string, string>; body: any };
  response: {
    status: number;
    headers: Record<string, string | string[]>;
    body?: any;
    lines?: string[];
    linesTruncated?: number;
  };
  auth?: string;
  notes?: string[];
  volatile?: string[];
  trimmed?: string;
}

/** The fixture file names in recording order ("06-create-cd.json", ...). */
export function goldenFiles(): string[] {
  return readdirSync(goldenDir)
    .filter((f) => /^\d+-.*\.json$/.test(f))
    .sort();
}

/** One exchange by its number ("07" or 7). */
export function golden(num: string | number): Golden {
  const prefix = `${String(num).padStart(2, '0')}-`;
  const file = goldenFiles().find((f) => f.startsWith(prefix));
  if (!file) throw new Error(`no golden exchange ${prefix}*.json in ${goldenDir}`);
  return JSON.parse(readFileSync(path.join(goldenDir, file), 'utf8'));
}
