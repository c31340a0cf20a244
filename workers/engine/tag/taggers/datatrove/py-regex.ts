// Translate a Python `re` pattern (str, Unicode) into an equivalent JS `u` RegExp, or fail with a clear message.
import { AssayError } from '../../../errors.js';
import { PY_WS_CHARS } from '../../../text/python.js';

const W = '\\p{L}\\p{N}_';
const OUTSIDE: Record<string, string> = {
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  w: `[${W}]`,
  W: `[^${W}]`,
  s: `[${PY_WS_CHARS}]`,
  S: `[^${PY_WS_CHARS}]`,
  b: `(?:(?<=[${W}])(?![${W}])|(?<![${W}])(?=[${W}]))`,
  B: `(?:(?<=[${W}])(?=[${W}])|(?<![${W}])(?![${W}]))`,
  A: '(?<![\\s\\S])',
  Z: '(?![\\s\\S])',
};
const INSIDE: Record<string, string> = { d: '\\p{Nd}', D: '\\P{Nd}', w: W, s: PY_WS_CHARS };
const SYNTAX = new Set('^$\\.*+?()[]{}|/-');
const SIMPLE = new Set('nrtfv0');

const unsupported = (what: string, field: string) => new AssayError('CONFIG', `Python regex feature not supported: ${what}`, { field });

/** One escape `\X…` at i; returns [replacement, length consumed]. */
function escape(src: string, i: number, inClass: boolean, field: string): [string, number] {
  const x = src[i + 1] ?? '';
  const table = inClass ? INSIDE : OUTSIDE;
  if (x in table) return [table[x] as string, 2];
  if (inClass && 'WSbBAZ'.includes(x)) throw unsupported(`\\${x} inside a character class`, field);
  if (SIMPLE.has(x)) return [`\\${x}`, 2];
  if (x === 'a') return ['\\x07', 2];
  if (x === 'x') return [src.slice(i, i + 4), 4];
  if (x === 'u') return [src.slice(i, i + 6), 6];
  if (x === 'U') return [`\\u{${src.slice(i + 2, i + 10)}}`, 10];
  if (/[1-9]/.test(x)) return [`\\${x}`, 2];
  if (/[A-Za-z]/.test(x)) throw unsupported(`escape \\${x}`, field);
  return [SYNTAX.has(x) ? `\\${x}` : x, 2];
}

/** `{m,n}` quantifier at i, or null when Python would read the brace literally. */
const QUANT = /^\{\d*(,\d*)?\}/;

export function pythonRegex(pattern: string, field = 'regex_exp'): RegExp {
  let src = pattern;
  let flags = 'u';
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(src); m !== null; m = /^\(\?([aiLmsux]+)\)/.exec(src)) {
    for (const f of m[1] as string) {
      if (f === 'i' || f === 'm' || f === 's') flags += flags.includes(f) ? '' : f;
      else if (f !== 'u') throw unsupported(`inline flag (?${f})`, field);
    }
    src = src.slice(m[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; ) {
    const c = src[i] as string;
    if (c === '\\') {
      const [rep, len] = escape(src, i, inClass, field);
      out += rep;
      i += len;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      i++;
    } else if (c === '[') {
      inClass = true;
      out += c;
      i++;
      if (src[i] === '^') {
        out += '^';
        i++;
      }
      if (src[i] === ']') {
        out += '\\]';
        i++;
      }
    } else if (src.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
    } else if (src.startsWith('(?P=', i)) {
      const end = src.indexOf(')', i);
      out += `\\k<${src.slice(i + 4, end)}>`;
      i = end + 1;
    } else if (/^\(\?[aiLmsux-]+:/.test(src.slice(i))) {
      throw unsupported('scoped inline flags (?flags:...)', field);
    } else if (c === '{') {
      const q = QUANT.exec(src.slice(i));
      out += q ? q[0] : '\\{';
      i += q ? q[0].length : 1;
    } else if (c === '}' || c === ']') {
      out += `\\${c}`;
      i++;
    } else if (c === '$' && !flags.includes('m')) {
      out += '(?=\\n?(?![\\s\\S]))';
      i++;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return new RegExp(out, flags);
  } catch (e) {
    throw new AssayError('CONFIG', `invalid regex ${JSON.stringify(pattern)}: ${(e as Error).message}`, { field, cause: e });
  }
}
