// Label and field selectors with the real parser's error messages (golden 53) and semantics: `!=` and `notin`
// also match objects without the key (goldens 42, 44).
import { badRequest } from './status.js';

type Op = 'exists' | '!' | '=' | '!=' | 'in' | 'notin';
interface Requirement {
  key: string;
  op: Op;
  values: string[];
}
export type LabelSelector = (labels: Record<string, string> | undefined) => boolean;

const SPECIAL = new Set(['!', '=', '(', ')', ',']);

function lex(input: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '!' && input[i + 1] === '=') {
      tokens.push('!=');
      i += 2;
      continue;
    }
    if (c === '=' && input[i + 1] === '=') {
      tokens.push('==');
      i += 2;
      continue;
    }
    if (SPECIAL.has(c)) {
      tokens.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < input.length && !/\s/.test(input[j]!) && !SPECIAL.has(input[j]!)) j++;
    tokens.push(input.slice(i, j));
    i = j;
  }
  return tokens;
}

const isIdent = (t: string | undefined) => t !== undefined && !SPECIAL.has(t) && t !== '!=' && t !== '==';

export function parseLabelSelector(input: string | undefined): LabelSelector | undefined {
  if (!input || !input.trim()) return undefined;
  const tokens = lex(input);
  const reqs: Requirement[] = [];
  let p = 0;
  const fail = (msg: string): never => {
    throw badRequest(msg);
  };
  for (;;) {
    let t = tokens[p++];
    if (t === '!') {
      const key = tokens[p++];
      if (!isIdent(key)) fail(`unable to parse requirement: found '${key ?? ''}', expected: identifier`);
      reqs.push({ key: key!, op: '!', values: [] });
    } else {
      if (!isIdent(t)) fail(`unable to parse requirement: found '${t ?? ''}', expected: !, identifier`);
      const key = t!;
      const op = tokens[p];
      if (op === undefined || op === ',') reqs.push({ key, op: 'exists', values: [] });
      else if (op === '=' || op === '==' || op === '!=') {
        p++;
        const v = tokens[p];
        const value = isIdent(v) && v !== 'in' && v !== 'notin' ? (p++, v!) : '';
        reqs.push({ key, op: op === '!=' ? '!=' : '=', values: [value] });
      } else if (op === 'in' || op === 'notin') {
        p++;
        if (tokens[p] !== '(') fail(`unable to parse requirement: found '${tokens[p] ?? ''}' expected: '('`);
        p++;
        const values: string[] = [];
        while (tokens[p] !== ')') {
          const v = tokens[p];
          if (v === undefined) fail("unable to parse requirement: found '', expected: ',', ')' or identifier");
          if (v === ',') {
            p++;
            continue;
          }
          if (!isIdent(v)) fail(`unable to parse requirement: found '${v}', expected: ',', ')' or identifier`);
          values.push(v!);
          p++;
        }
        p++;
        reqs.push({ key, op: op, values });
      } else fail(`unable to parse requirement: found '${op}', expected: in, notin, =, ==, !=, gt, lt`);
    }
    t = tokens[p++];
    if (t === undefined) break;
    if (t !== ',') fail(`found '${t}', expected: ',' or 'end of string'`);
  }
  return (labels) => reqs.every((r) => matches(r, labels ?? {}));
}

function matches(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.op) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
      return has && v === r.values[0];
    case '!=':
      return !has || v !== r.values[0];
    case 'in':
      return has && r.values.includes(v!);
    case 'notin':
      return !has || !r.values.includes(v!);
  }
}

export type FieldSelector = (obj: any) => boolean;
export type FieldGetter = (obj: any) => string | undefined;

/** Field selectors: metadata.name and metadata.namespace everywhere, plus per-kind extras (400 otherwise, golden 49). */
export function parseFieldSelector(
  input: string | undefined,
  extra: Record<string, FieldGetter> = {},
): FieldSelector | undefined {
  if (!input || !input.trim()) return undefined;
  const getters: Record<string, FieldGetter> = {
    'metadata.name': (o) => o?.metadata?.name,
    'metadata.namespace': (o) => o?.metadata?.namespace ?? '',
    ...extra,
  };
  const tests = input
    .split(',')
    .filter((s) => s.trim())
    .map((term) => {
      const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
      if (!m) throw badRequest(`invalid selector: '${input}'; can't understand '${term}'`);
      const [, field, op, value] = m as unknown as [string, string, string, string];
      const get = getters[field];
      if (!get) throw badRequest(`field label not supported: ${field}`);
      return (o: any) => ((get(o) ?? '') === value) === (op !== '!=');
    });
  return (o) => tests.every((t) => t(o));
}
