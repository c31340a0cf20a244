// JSON helpers matching Dolma's Rust output: compact, object keys sorted (serde_json without preserve_order).

/** Compact JSON with every object's keys sorted by code unit, like serde_json's BTreeMap order. */
export function stringifySorted(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          const v: unknown = value[i];
          out += v === undefined || typeof v === 'function' ? 'null' : stringifySorted(v);
        }
        return out + ']';
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = '{';
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined || typeof v === 'function') continue;
        if (!first) out += ',';
        first = false;
        out += JSON.stringify(k) + ':' + stringifySorted(v);
      }
      return out + '}';
    }
    default:
      return 'null';
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
