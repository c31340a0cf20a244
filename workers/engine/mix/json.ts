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

/** Rust's `str::trim` removes Unicode White_Space, which differs from JS `trim()` (U+FEFF, U+0085). */
const RUST_WS = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const TRIM = new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, 'g');

export function rustTrim(s: string): string {
  return s.replace(TRIM, '');
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
