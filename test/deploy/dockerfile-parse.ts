// How Docker reads a Dockerfile and a .dockerignore, for dockerfile.ts to perform them: instructions by stage, KEY=value
// pairs, and which context paths the ignore file leaves out.
import { posix } from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string | undefined;
  from: string;
  steps: Instruction[];
}

/** Instructions by stage; comment lines dropped and continuation lines joined, as Docker reads them. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = pending + raw.trim();
    if (line.endsWith('\\')) {
      pending = `${line.slice(0, -1).trimEnd()} `;
      continue;
    }
    pending = '';
    if (!line) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    if (!m) throw new Error(`Dockerfile: cannot read "${line}"`);
    const keyword = m[1]!.toUpperCase();
    const args = m[2]!.trim();
    if (keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!from) throw new Error(`Dockerfile: cannot read FROM ${args}`);
      stages.push({ from: from[1]!, name: from[2], steps: [] });
    } else if (stages.length > 0) {
      stages.at(-1)!.steps.push({ keyword, args });
    } else if (keyword !== 'ARG') {
      throw new Error(`Dockerfile: ${keyword} before the first FROM`);
    }
  }
  return stages;
}

/** `KEY=value KEY2="value 2"` (ENV, LABEL). */
export function parsePairs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/([\w.-]+)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    const value = m[2]!;
    out[m[1]!] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
  }
  return out;
}

/**
 * .dockerignore as Docker reads it: the last pattern that matches a path or one of its parent directories decides;
 * `!` re-includes; `*` and `?` stay within one path segment, `**` crosses segments.
 */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const include = l.startsWith('!');
      const pattern = posix.normalize((include ? l.slice(1) : l).replace(/^\/+/, ''));
      const source = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) =>
          part === '**/' || part === '**'
            ? '(?:.*/)?'
            : part === '*'
              ? '[^/]*'
              : part === '?'
                ? '[^/]'
                : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      return { include, re: new RegExp(`^${source}$`) };
    });
  return (path: string) => {
    const segments = path.split('/');
    const prefixes = segments.map((_, i) => segments.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) if (prefixes.some((p) => rule.re.test(p))) ignored = !rule.include;
    return ignored;
  };
}
