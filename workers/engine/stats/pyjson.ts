// Python `json.dump` / `json.load` with the int/float distinction kept, so stats files match DataTrove's bytes.
import { AssayError } from '../errors.js';
import { pyFloatRepr } from '../text/python.js';

/** A Python float in a JSON tree (plain `number` stands for a Python int). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Objects are Maps when key order matters: JS objects put integer-like keys ("4", "1") first. */
export type PyJson = null | boolean | number | string | PyFloat | PyJson[] | PyDict | { [key: string]: PyJson };
export type PyDict = Map<string, PyJson>;

/** The numeric value of an int or float leaf. */
export const numberOf = (v: number | PyFloat): number => (v instanceof PyFloat ? v.value : v);

/** `json.dumps(value)` with the defaults: `", "` / `": "` separators, ensure_ascii, `Infinity`/`NaN`. */
export function pyJsonDumps(value: PyJson): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? intRepr(value) : floatRepr(value);
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  return `{${(value instanceof Map ? [...value] : Object.entries(value))
    .map(([k, v]) => `${quote(k)}: ${pyJsonDumps(v)}`)
    .join(', ')}}`;
}

const intRepr = (n: number): string => (Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString());

function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return pyFloatRepr(x);
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** ensure_ascii: everything outside printable ASCII becomes `\uXXXX` (UTF-16 units, as Python does). */
function quote(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
  return `"${s.replace(/["\\\x00-\x1f\x7f-\uffff]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/**
 * `json.loads` keeping numbers with a fraction or exponent as PyFloat and objects as ordered Maps. Accepts Python's
 * `NaN` / `Infinity` / `-Infinity` extensions. `file` only names the source in errors.
 */
export function pyJsonParse(text: string, file?: string): PyJson {
  let i = 0;
  const fail = (what: string): never => {
    throw new AssayError('PARSE', `invalid JSON at offset ${i}: ${what}`, file === undefined ? {} : { file });
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const value = (): PyJson => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: PyDict = new Map();
      ws();
      if (text[i] === '}') return i++, out;
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        ws();
        if (text[i++] !== ':') fail('expected ":"');
        out.set(k, value());
        ws();
        const d = text[i++];
        if (d === '}') return out;
        if (d !== ',') fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const out: PyJson[] = [];
      ws();
      if (text[i] === ']') return i++, out;
      for (;;) {
        out.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return out;
        if (d !== ',') fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    for (const [word, v] of WORDS) if (text.startsWith(word, i)) return (i += word.length), v;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail('unexpected character');
    i += m[0].length;
    const n = Number(m[0]);
    return m[1] !== undefined || m[2] !== undefined ? new PyFloat(n) : n;
  };
  const str = (): string => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) return fail('bad string');
    i += m[0].length;
    return JSON.parse(m[0]) as string;
  };
  const out = value();
  ws();
  if (i !== text.length) fail('trailing data');
  return out;
}

const WORDS: [string, PyJson][] = [
  ['null', null],
  ['true', true],
  ['false', false],
  ['NaN', new PyFloat(NaN)],
  ['Infinity', new PyFloat(Infinity)],
  ['-Infinity', new PyFloat(-Infinity)],
];
// Sticky, so each match starts at the cursor without slicing the text (keeps parsing linear).
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- raw control characters are invalid inside JSON strings
const STRING = /"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
