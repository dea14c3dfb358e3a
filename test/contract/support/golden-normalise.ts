// Turns a golden exchange and a live answer into comparable values: fields the README calls volatile are
// replaced by a marker on both sides (only where the golden has them, so a missing field still fails).

const MARK = '<volatile>';

type Seg = string;
function parsePath(path: string): Seg[] {
  return path
    .replace(/\s*\(.*\)$/, '')
    .replace(/\[\*\]/g, '.[*]')
    .split('.')
    .filter(Boolean);
}

function mark(expected: any, actual: any, segs: Seg[]): void {
  if (!segs.length || expected === null || typeof expected !== 'object') return;
  const [head, ...rest] = segs as [Seg, ...Seg[]];
  if (head === '[*]') {
    if (!Array.isArray(expected)) return;
    expected.forEach((e, i) => mark(e, Array.isArray(actual) ? actual[i] : undefined, rest));
    return;
  }
  if (!(head in expected)) return;
  if (!rest.length) {
    expected[head] = MARK;
    if (actual && typeof actual === 'object' && head in actual) actual[head] = MARK;
    return;
  }
  mark(expected[head], actual?.[head], rest);
}

/** Applies the golden's `volatile` entries that name paths under response.body / response.lines. */
export function applyVolatile(
  volatile: string[],
  expected: { body?: any; lines?: any[] },
  actual: { body?: any; lines?: any[] },
) {
  for (const v of volatile) {
    const m = /^response\.(body|lines)(.*)$/.exec(v.replace(/\s*\(.*\)$/, ''));
    if (!m || v.includes(',')) continue;
    const segs = parsePath(m[2]!);
    if (m[1] === 'body') mark({ root: expected.body }, { root: actual.body }, ['root', ...segs]);
    else mark({ root: expected.lines }, { root: actual.lines }, ['root', ...segs]);
  }
}

export const byName = (a: any, b: any) =>
  String(a?.metadata?.name ?? a?.name ?? '').localeCompare(String(b?.metadata?.name ?? b?.name ?? ''));
