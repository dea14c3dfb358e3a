// The subset of client-go's JSONPath that printer columns use (additionalPrinterColumns are "simple" paths):
// `.field`, escaped dots (`.metadata.labels.hive\.openshift\.io/version`), `['key']`, `[n]`, `[*]` and the
// filter `[?(@.path=='value')]` (also `!=`). Missing keys give no result, as with AllowMissingKeys(true).

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: Step[]; op: '==' | '!='; value: string };

function parse(path: string): Step[] {
  const steps: Step[] = [];
  let i = path.startsWith('{') && path.endsWith('}') ? 1 : 0;
  const end = i === 1 ? path.length - 1 : path.length;
  if (path[i] === '@' || path[i] === '$') i++;
  while (i < end) {
    const c = path[i];
    if (c === '.') {
      i++;
      let name = '';
      while (i < end && path[i] !== '.' && path[i] !== '[') {
        if (path[i] === '\\' && i + 1 < end) {
          name += path[i + 1];
          i += 2;
        } else name += path[i++];
      }
      if (name === '*') steps.push({ kind: 'all' });
      else if (name) steps.push({ kind: 'field', name });
    } else if (c === '[') {
      const close = matchingBracket(path, i);
      const inner = path.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const m = /^\?\(\s*@(\S*?)\s*(==|!=)\s*(['"])(.*)\3\s*\)$/.exec(inner);
        if (!m) throw new Error(`unsupported JSONPath segment [${inner}]`);
        steps.push({ kind: 'filter', path: parse(m[1]!), op: m[2] as '==' | '!=', value: m[4]! });
      }
    } else throw new Error(`unrecognized JSONPath ${path}`);
  }
  return steps;
}

function matchingBracket(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new Error(`unclosed [ in JSONPath ${s}`);
}

function evaluate(steps: Step[], roots: unknown[]): unknown[] {
  let current = roots;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || typeof v !== 'object') continue;
      if (step.kind === 'field') {
        if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, step.name)) next.push((v as any)[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const item = v[step.index < 0 ? v.length + step.index : step.index];
          if (item !== undefined) next.push(item);
        }
      } else if (step.kind === 'all') {
        next.push(...(Array.isArray(v) ? v : Object.values(v)));
      } else {
        for (const item of Array.isArray(v) ? v : Object.values(v)) {
          const got = evaluate(step.path, [item]);
          const equal = got.length > 0 && String(got[0]) === step.value;
          if (got.length > 0 && (step.op === '==' ? equal : !equal)) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

/** A compiled path: the values it finds in `obj`, in document order (empty when nothing matches). */
export function compileJsonPath(path: string): (obj: unknown) => unknown[] {
  const steps = parse(path);
  return (obj) => evaluate(steps, [obj]);
}
