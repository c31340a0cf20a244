// Seeded input generators and mutators for the fuzz suite: JSON values and lines, YAML text, expressions, byte streams.
import { mulberry32 } from '../shared/prng.js';

export type Rand = () => number;

export class Gen {
  readonly rand: Rand;
  constructor(seed: number) {
    this.rand = mulberry32(seed);
  }

  int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  chance(p: number): boolean {
    return this.rand() < p;
  }

  /** Short strings with the characters parsers trip on. */
  str(): string {
    let s = '';
    for (let i = this.int(8); i > 0; i--) s += this.pick(CHARS);
    return this.chance(0.1) ? this.pick(TOKENS) : s;
  }

  /** A JSON-compatible value, nested up to `depth` (sometimes much deeper, in one chain). */
  json(depth = 4): unknown {
    if (depth <= 0 || this.chance(0.35)) return this.scalar();
    if (this.chance(0.02)) return this.chain(50 + this.int(300));
    if (this.chance(0.5)) return Array.from({ length: this.int(5) }, () => this.json(depth - 1));
    const o: Record<string, unknown> = {};
    for (let i = this.int(5); i > 0; i--) {
      const k = this.chance(0.15) ? this.pick(KEYS) : this.str();
      if (k === '__proto__') Object.defineProperty(o, k, { value: this.json(depth - 1), enumerable: true, writable: true, configurable: true });
      else o[k] = this.json(depth - 1);
    }
    return o;
  }

  scalar(): unknown {
    switch (this.int(7)) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.int(1000) - 500;
      case 3:
        return this.pick([0.5, -0, 1e308, 5e-324, 0.1 + 0.2, 1e21, 2 ** 53 + 1]);
      case 4:
        return [[this.int(50), this.int(50) + 50, this.rand()]];
      default:
        return this.str();
    }
  }

  chain(depth: number): unknown {
    let v: unknown = this.scalar();
    for (let i = 0; i < depth; i++) v = this.chance(0.5) ? [v] : { k: v };
    return v;
  }

  /** A Dolma document (sometimes with attributes of its own). */
  doc(id: number): Record<string, unknown> {
    const d: Record<string, unknown> = { id: this.chance(0.95) ? `d${id}` : this.scalar(), text: this.chance(0.9) ? this.text() : this.scalar() };
    if (this.chance(0.5)) d.metadata = this.json(3);
    if (this.chance(0.2)) d.attributes = this.json(2);
    if (this.chance(0.3)) d.source = this.pick(['web', 'books', '']);
    return d;
  }

  text(): string {
    const words = Array.from({ length: this.int(40) }, () => (this.chance(0.1) ? this.str() : this.pick(WORDS)));
    return words.join(this.chance(0.2) ? '\n' : ' ');
  }

  /** One random edit of `s`: insert, delete, duplicate, replace with a token, repeat a slice. */
  mutate(s: string, edits = 1 + this.int(4)): string {
    let out = s;
    for (let e = 0; e < edits; e++) {
      const i = this.int(out.length + 1);
      const j = Math.min(out.length, i + this.int(12));
      switch (this.int(6)) {
        case 0:
          out = out.slice(0, i) + this.pick(CHARS) + out.slice(i);
          break;
        case 1:
          out = out.slice(0, i) + out.slice(j);
          break;
        case 2:
          out = out.slice(0, j) + out.slice(i, j) + out.slice(j);
          break;
        case 3:
          out = out.slice(0, i) + this.pick(TOKENS) + out.slice(j);
          break;
        case 4:
          out = out.slice(0, i) + out.slice(i, j).repeat(2 + this.int(40)) + out.slice(j);
          break;
        default:
          out = out.slice(0, i) + String.fromCharCode(this.int(0x3000)) + out.slice(i);
      }
    }
    return out;
  }

  /** Byte-level damage: truncation, trailing garbage, bit flips. */
  damage(buf: Buffer): Buffer {
    switch (this.int(3)) {
      case 0:
        return buf.subarray(0, this.int(buf.length));
      case 1:
        return Buffer.concat([buf, Buffer.from(Array.from({ length: 1 + this.int(40) }, () => this.int(256)))]);
      default: {
        const out = Buffer.from(buf);
        for (let k = 1 + this.int(4); k > 0; k--) {
          const at = this.int(out.length);
          out[at] = (out[at] as number) ^ (1 << this.int(8));
        }
        return out;
      }
    }
  }
}

const CHARS = [...'[]{}()"\'\\:,#&*!|>-?@$.=<~^+% \t\n\r0a9Zé😀', '\u2028', '\ud800', '\u0000', '\ufeff'];
const TOKENS = ['__proto__', 'constructor', '*a', '&a ', '${oc.env:HOME}', '${oc.env:NOPE_X}', '1e309', '-0', 'NaN', '<<: *a', '!!binary', '---', '...', '@.', '$..', '[?(', ')]', ' ~= ', "'(a|aa)+$'", ' && ', ' in ', '[-1]', '[*]', '|', '.[]', 'test("x")', 'def f: f;', '[1:2:0]', 'null', 'true'];
const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'id', 'text', 'attributes', 'metadata', 'hasOwnProperty'];
const WORDS = 'the river town people market morning bridge garden lorem ipsum cookie privacy email a@b.co 555-1234 https://x.example/y'.split(' ');

/** JSONPath rules: Dolma's shapes plus the hostile ones; mutations of these are fuzzed. */
export const JSONPATH_SEEDS = [
  '$.attributes[?(@.s__t__score && @.s__t__score[0] && @.s__t__score[0][2] > 0.5)]',
  '$.attributes[?(@.s__t__score[0][2] >= 0.1 || @.other)]',
  "$.metadata[?(@.lang == 'en')]",
  "$[?(@.text ~= '(a|aa)+$')]",
  '$..*',
  '$.attributes.s__t__score',
  "$.attributes[?(@.k in ['a', 'b'])]",
  '$.attributes[?(!@.x)]',
  '$.a[1:3]',
  '$.attributes[?(@.__proto__)]',
];

/** jq rules and selectors in Dolma's style. */
export const JQ_SEEDS = [
  '.attributes.s__t__score[0][2] > 0.5',
  '(.attributes.s__t__score // []) | length > 0',
  '.text | test("^a+b$")',
  '.attributes.s__t__score[]? | select(.[2] > 0.2)',
  '[.metadata[]?] | length',
  '.attributes | has("s__t__score")',
  'any(.attributes.s__t__score[]?; .[2] > 0.9)',
  '.text | length < 100',
];
