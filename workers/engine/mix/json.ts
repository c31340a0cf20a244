// JSON helpers matching Dolma's Rust output: compact, object keys sorted (serde_json without preserve_order).
import { sortedView, UNSUPPORTED } from './sorted-view.js';

/**
 * Deepest nesting of arrays and objects a document or attribute line may have (the line's own
 * object is level 1): serde_json, which Dolma's mixer parses lines with, stops at 128 levels
 * ("recursion limit exceeded"), so deeper lines are bad lines here too, in the mixer and the index.
 */
export const MAX_DOC_DEPTH = 127;

/** Whether `value` nests arrays/objects more than `max` levels deep (stops looking as soon as it does). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    // Indexed, not for…of: an iterator per array was most of the mixer's garbage from this check.
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === 'object' && nestsDeeperThan(v, max - 1)) return true;
    }
    return false;
  }
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object' && nestsDeeperThan(v, max - 1)) return true;
  }
  return false;
}

/** The bad-line message for a line that nests deeper than MAX_DOC_DEPTH. */
export const TOO_DEEP = `nested more than ${MAX_DOC_DEPTH} levels deep (Dolma's JSON parser, serde_json, stops at 128)`;

/** Nesting past which the stringifiers below switch from recursion to an explicit stack. */
const RECURSION_LIMIT = 256;

/**
 * Compact JSON with every object's keys sorted by code unit, like serde_json's BTreeMap order.
 * Documents of any depth: JSON.parse reads 100,000-deep lines, so writing them back must not
 * overflow the stack (shallow values take the recursive path). Parsed JSON goes through a sorted view
 * written by the native JSON.stringify (sorted-view.ts): ~1.6× faster on mixer documents than writing
 * each member here, which built a string per key and value.
 */
export function stringifySorted(value: unknown): string {
  if (value !== null && typeof value === 'object') {
    const view = sortedView(value, 0);
    if (view !== UNSUPPORTED) return JSON.stringify(view);
  }
  return stringifyAt(value, 0, true);
}

/** JSON.stringify's output (keys in insertion order) for documents of any depth. */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return stringifyDeep(value, false);
  }
}

function scalar(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return 'null';
  }
}

const skipped = (v: unknown): boolean => v === undefined || typeof v === 'function';
const keysOf = (obj: object, sorted: boolean): string[] => (sorted ? Object.keys(obj).sort() : Object.keys(obj));

function stringifyAt(value: unknown, depth: number, sorted: boolean): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  if (depth >= RECURSION_LIMIT) return stringifyDeep(value, sorted);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const v: unknown = value[i];
      out += skipped(v) ? 'null' : stringifyAt(v, depth + 1, sorted);
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  let out = '{';
  let first = true;
  for (const k of keysOf(obj, sorted)) {
    const v = obj[k];
    if (skipped(v)) continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + stringifyAt(v, depth + 1, sorted);
  }
  return out + '}';
}

/** One open array or object of the iterative stringifier: its members and the next one to write. */
interface Frame {
  value: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  next: number;
  wrote: boolean;
}

function stringifyDeep(root: unknown, sorted: boolean): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const enter = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return void parts.push(scalar(v));
    const isArray = Array.isArray(v);
    parts.push(isArray ? '[' : '{');
    stack.push({ value: v as Frame['value'], keys: isArray ? null : keysOf(v, sorted), next: 0, wrote: false });
  };
  enter(root);
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as Frame;
    if (f.keys === null) {
      const arr = f.value as unknown[];
      if (f.next >= arr.length) {
        parts.push(']');
        stack.pop();
        continue;
      }
      const v = arr[f.next++];
      if (f.wrote) parts.push(',');
      f.wrote = true;
      if (skipped(v)) parts.push('null');
      else enter(v);
      continue;
    }
    if (f.next >= f.keys.length) {
      parts.push('}');
      stack.pop();
      continue;
    }
    const k = f.keys[f.next++] as string;
    const v = (f.value as Record<string, unknown>)[k];
    if (skipped(v)) continue;
    parts.push(`${f.wrote ? ',' : ''}${JSON.stringify(k)}:`);
    f.wrote = true;
    enter(v);
  }
  return parts.join('');
}

/**
 * `Object.assign` for parsed JSON: own data properties only, and a key named `__proto__` stays a
 * key (assignment would set the target's prototype instead and lose the member).
 */
export function assignMembers(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const k of Object.keys(source)) {
    if (k === '__proto__') Object.defineProperty(target, k, { value: source[k], writable: true, enumerable: true, configurable: true });
    else target[k] = source[k];
  }
}

/** Rust's `char::is_whitespace` (Unicode White_Space), the set `str::trim` removes (unlike JS `trim()`: U+0085 yes, U+FEFF no); all of it is in the BMP. */
export function isRustWhitespace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Rust's `str::trim`, as a scan from both ends: a `^\s+|\s+$` regex backtracks over every long inner whitespace run. */
export function rustTrim(s: string): string {
  let start = 0;
  while (start < s.length && isRustWhitespace(s.charCodeAt(start))) start++;
  let end = s.length;
  while (end > start && isRustWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** UTF-8 byte length without allocating a buffer. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
