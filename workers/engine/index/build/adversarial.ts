// Test helper: JSON text in every legal spelling (escapes, whitespace, number forms, key orders, duplicates) for the scanner's differential tests.

/** Characters strings are made of: ASCII, escapes' targets, Unicode (and Rust) whitespace, astral, lone surrogates. */
const CHARS = [
  'a', 'b', 'Z', '0', ' ', ' ', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u001f', '\u007f',
  'é', 'ß', '€', '😀', '𝔘', '\u0085', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f',
  '\u3000', '\ufeff', '\u200b', '\u180e', '\ud800', '\udfff', '\udbff', '\u0800', '\u07ff',
];
const SHORT: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex4 = (c: number, upper: boolean): string => {
  const h = c.toString(16).padStart(4, '0');
  return `\\u${upper ? h.toUpperCase() : h}`;
};

export class JsonGen {
  constructor(private readonly r: () => number) {}

  chance(p: number): boolean {
    return this.r() < p;
  }

  int(n: number): number {
    return Math.floor(this.r() * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }

  /** JSON whitespace (mostly none). */
  ws(): string {
    return this.chance(0.8) ? '' : this.pick([' ', '\t', '\r', '  ', ' \t\r ']);
  }

  /** A random string value (`ascii`: letters, spaces and ASCII punctuation only). */
  text(max: number, ascii = false): string {
    let s = '';
    const n = this.int(max + 1);
    for (let i = 0; i < n; i++) s += ascii ? this.pick(['a', 'q', ' ', ' ', '-', '.', '~', '{']) : this.chance(0.5) ? this.pick(['w', 'x', ' ']) : this.pick(CHARS);
    return s;
  }

  /** `s` as a JSON string, each character raw or escaped at random (whatever must be escaped is). */
  str(s: string, escapes = 0.3): string {
    let out = '"';
    for (const ch of s) {
      const c = ch.codePointAt(0) as number;
      const lone = c >= 0xd800 && c <= 0xdfff;
      const must = c < 0x20 || ch === '"' || ch === '\\' || lone;
      if (!must && !this.chance(escapes)) {
        out += ch;
        continue;
      }
      const short = SHORT[ch];
      if (short !== undefined && this.chance(0.6)) out += short;
      else if (c > 0xffff) out += hex4(ch.charCodeAt(0), this.chance(0.5)) + hex4(ch.charCodeAt(1), this.chance(0.5));
      else out += hex4(c, this.chance(0.5));
    }
    return out + '"';
  }

  /** A number in any of JSON's spellings, including ones only exact conversion gets right. */
  num(): string {
    if (this.chance(0.3)) {
      return this.pick([
        '0', '-0', '0.0', '-0.0', '0e0', '-0E-0', '1e400', '-1e400', '1e-400', '5e-324', '4.9e-324', '2.2250738585072014e-308',
        '1.7976931348623157e308', '9007199254740993', '9007199254740992', '123456789012345678901234567890', '0.1', '0.30000000000000004',
        '1e22', '1e23', '1.5e-22', '1.5e-23', '4294967295', '4294967296', '-1', '1.0', '2.50', '1E+2', '1e007', '0.000001234',
        '123456789012345.6', '1234567890123456.7', '0.1234567890123456789', '100000000000000000000000',
      ]);
    }
    let s = this.chance(0.2) ? '-' : '';
    s += this.chance(0.2) ? '0' : String(1 + this.int(9)) + this.digits(this.int(this.chance(0.1) ? 20 : 6));
    if (this.chance(0.5)) s += '.' + this.digits(1 + this.int(this.chance(0.1) ? 22 : 5));
    if (this.chance(0.2)) s += this.pick(['e', 'E']) + this.pick(['', '+', '-']) + this.digits(1 + this.int(3));
    return s;
  }

  private digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(10));
    return s;
  }

  /** A `[start, end, score]` list, now and then with an element that makes it irregular. */
  spans(): string {
    const n = this.chance(0.1) ? 0 : 1 + this.int(3);
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      const odd = this.chance(0.08);
      const off = (): string => (odd ? this.pick(['-1', '1.5', '4294967296', '"3"', 'null', '1e0', '2.0']) : String(this.int(500)));
      const parts = [off(), off(), this.chance(0.5) ? this.num() : String(this.r())];
      if (odd && this.chance(0.3)) parts.push('1');
      if (odd && this.chance(0.2)) parts.pop();
      items.push(this.arr(parts));
    }
    return this.arr(items);
  }

  arr(items: readonly string[]): string {
    return `[${this.ws()}${items.map((v) => v + this.ws()).join(`,${this.ws()}`)}]`;
  }

  /** An object from key/value texts (keys are spelled by `str`). */
  obj(members: readonly (readonly [string, string])[]): string {
    return `{${this.ws()}${members.map(([k, v]) => `${this.str(k, 0.1)}${this.ws()}:${this.ws()}${v}${this.ws()}`).join(`,${this.ws()}`)}}`;
  }

  /** Any value, nested up to `depth` levels. */
  value(depth: number): string {
    const k = this.int(depth > 0 ? 9 : 6);
    switch (k) {
      case 0:
        return this.str(this.text(6));
      case 1:
        return this.num();
      case 2:
        return this.pick(['true', 'false', 'null']);
      case 3:
      case 4:
        return this.spans();
      case 5:
        return this.str(this.pick(['en', 'de', 'x y', 'é', '']));
      case 6:
        return this.arr(Array.from({ length: this.int(3) }, () => this.value(depth - 1)));
      default:
        return this.obj(Array.from({ length: this.int(4) }, () => [this.pick(['a', 'b', 'c', 'k\u00e9y', 'x"y', '0', '10', 'l\ud800', 'l\ufffd', '😀']), this.value(depth - 1)] as const));
    }
  }

  /** Members in random order, sometimes with one key repeated (JSON.parse keeps the last value). */
  shuffle(members: (readonly [string, string])[], dupValue: () => string): (readonly [string, string])[] {
    for (let i = members.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [members[i], members[j]] = [members[j] as readonly [string, string], members[i] as readonly [string, string]];
    }
    if (members.length > 0 && this.chance(0.04)) {
      const [key] = this.pick(members);
      members.splice(this.int(members.length + 1), 0, [key, dupValue()]);
    }
    return members;
  }
}
