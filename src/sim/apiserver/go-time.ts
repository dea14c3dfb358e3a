// Go's time.Parse for the two layouts the API server decodes timestamps with: metav1.Time (time.RFC3339) and
// metav1.MicroTime (RFC3339Micro, exactly six fraction digits). Returns Go's ParseError text, which the server puts
// in its 400 as is ("parsing time \"x\" as \"2006-01-02T15:04:05.000000Z07:00\": cannot parse \"x\" as \"2006\"").
// The steps and error cases follow time/format.go of Go 1.19 (what kube-apiserver 1.26 is built with).

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Chunk = { std: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'tz' } | { std: 'frac'; digits: number };
interface Step {
  prefix: string;
  chunk: Chunk;
  text: string;
}

const STEPS: Record<string, Step[]> = {
  [RFC3339]: steps(false),
  [RFC3339_MICRO]: steps(true),
};

function steps(micro: boolean): Step[] {
  const out: Step[] = [
    { prefix: '', chunk: { std: 'year' }, text: '2006' },
    { prefix: '-', chunk: { std: 'month' }, text: '01' },
    { prefix: '-', chunk: { std: 'day' }, text: '02' },
    { prefix: 'T', chunk: { std: 'hour' }, text: '15' },
    { prefix: ':', chunk: { std: 'minute' }, text: '04' },
    { prefix: ':', chunk: { std: 'second' }, text: '05' },
  ];
  if (micro) out.push({ prefix: '', chunk: { std: 'frac', digits: 6 }, text: '.000000' });
  out.push({ prefix: '', chunk: { std: 'tz' }, text: 'Z07:00' });
  return out;
}

/** time.quote: ASCII as is with " and \ escaped, every byte of anything else as \xNN. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number) => i < s.length && s[i]! >= '0' && s[i]! <= '9';
const commaOrPeriod = (c: string | undefined) => c === '.' || c === ',';

/** time.getnum. */
function getnum(s: string, fixed: boolean): [number, string, boolean] {
  if (!isDigit(s, 0)) return [0, s, false];
  if (!isDigit(s, 1)) return fixed ? [0, s, false] : [Number(s[0]), s.slice(1), true];
  return [Number(s[0]) * 10 + Number(s[1]), s.slice(2), true];
}

/** time.atoi: an optional sign, then digits only. */
function atoi(s: string): number | undefined {
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (!/^\d+$/.test(s)) return undefined;
  const x = Number(s);
  return neg ? -x : x;
}

/** time.parseNanoseconds: "." or "," then digits (a sign is accepted by atoi; negative is out of range). */
function parseNanoseconds(value: string, nbytes: number): { ok: boolean; range?: string } {
  if (!commaOrPeriod(value[0])) return { ok: false };
  const ns = atoi(value.slice(1, Math.min(nbytes, 10)));
  if (ns === undefined) return { ok: false };
  if (ns < 0) return { ok: true, range: 'fractional second' };
  return { ok: true };
}

const daysIn = (month: number, year: number) =>
  month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/** undefined when `value` parses with `layout`, otherwise Go's error text. */
export function goTimeParseError(value: string, layout: typeof RFC3339 | typeof RFC3339_MICRO): string | undefined {
  const cannot = (valueElem: string, layoutElem: string) =>
    `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(valueElem)} as ${goQuote(layoutElem)}`;
  const outOfRange = (what: string) => `parsing time ${goQuote(value)}: ${what} out of range`;
  const list = STEPS[layout]!;
  let rest = value;
  let year = 0,
    month = 1,
    day = 1;
  for (let i = 0; i < list.length; i++) {
    const { prefix, chunk, text } = list[i]!;
    for (const p of prefix) {
      if (rest[0] !== p) return cannot(rest, prefix);
      rest = rest.slice(1);
    }
    const hold = rest;
    let ok = true;
    let range: string | undefined;
    switch (chunk.std) {
      case 'year': {
        if (rest.length < 4 || !isDigit(rest, 0)) {
          ok = false;
          break;
        }
        const y = atoi(rest.slice(0, 4));
        rest = rest.slice(4);
        if (y === undefined) ok = false;
        else year = y;
        break;
      }
      case 'month':
        [month, rest, ok] = getnum(rest, true);
        if (ok && (month <= 0 || month > 12)) range = 'month';
        break;
      case 'day':
        [day, rest, ok] = getnum(rest, true); // checked against the month once everything is parsed
        break;
      case 'hour': {
        let hour: number;
        [hour, rest, ok] = getnum(rest, false);
        if (hour >= 24) range = 'hour';
        break;
      }
      case 'minute': {
        let min: number;
        [min, rest, ok] = getnum(rest, true);
        if (min >= 60) range = 'minute';
        break;
      }
      case 'second': {
        let sec: number;
        [sec, rest, ok] = getnum(rest, true);
        if (sec >= 60) {
          range = 'second';
          break;
        }
        // A fraction the layout does not have is still read (time.RFC3339 accepts any number of digits); Go reads
        // it even after failing to read the seconds, and its verdict then stands.
        if (rest.length >= 2 && commaOrPeriod(rest[0]) && isDigit(rest, 1) && list[i + 1]?.chunk.std !== 'frac') {
          let n = 2;
          while (n < rest.length && isDigit(rest, n)) n++;
          const frac = parseNanoseconds(rest, n);
          ok = frac.ok;
          range = frac.range;
          rest = rest.slice(n);
        }
        break;
      }
      case 'frac': {
        const ndigit = 1 + chunk.digits; // stdFracSecond0: exactly that many digits
        if (rest.length < ndigit) {
          ok = false;
          break;
        }
        const frac = parseNanoseconds(rest, ndigit);
        ok = frac.ok;
        range = frac.range;
        rest = rest.slice(ndigit);
        break;
      }
      case 'tz': {
        if (rest[0] === 'Z') {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':') {
          ok = false;
          break;
        }
        const [sign, hh, mm] = [rest[0], rest.slice(1, 3), rest.slice(4, 6)];
        rest = rest.slice(6);
        ok = getnum(hh, true)[2] && getnum(mm, true)[2] && (sign === '+' || sign === '-');
        break;
      }
    }
    if (range) return outOfRange(range);
    if (!ok) return cannot(hold, text);
  }
  if (rest.length) return `parsing time ${goQuote(value)}: extra text: ${goQuote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return undefined;
}
