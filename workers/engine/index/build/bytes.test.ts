// The byte scanner's numbers, strings and text measures against JSON.parse (+ measureText) on adversarial spellings.
import { isAscii } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { rng } from '../../testing.js';
import { JsonGen } from './adversarial.js';
import { ByteScanner, FALLBACK, plainKey } from './bytes.js';
import { measureText } from './text.js';

/** A scanner positioned on `json`, followed by the `\n` the scanner relies on. */
function scannerOn(json: string): ByteScanner {
  const buf = Buffer.from(`${json}\n`);
  const sc = new ByteScanner();
  sc.reset(buf, 0, buf.length - 1, isAscii(buf));
  return sc;
}

describe('ByteScanner', () => {
  it('converts every spelling of a number exactly as JSON.parse does (including -0, subnormals, overflow, 16+ digits)', () => {
    const g = new JsonGen(rng(1));
    for (let i = 0; i < 20_000; i++) {
      const t = g.num();
      const sc = scannerOn(t);
      const v = sc.number();
      expect(Object.is(v, JSON.parse(t) as number), t).toBe(true);
      expect(sc.pos, t).toBe(Buffer.byteLength(t));
    }
  });

  it('refuses what is not a JSON number', () => {
    for (const t of ['-', '1.', '1e', '1e+', '.5', '+1', '-.5', '-e1', 'x']) expect(() => scannerOn(t).number(), t).toThrow(expect.objectContaining(FALLBACK));
    // What follows a number is the caller's to check: `01` is `0` then a stray digit.
    const sc = scannerOn('01');
    expect(sc.number()).toBe(0);
    expect(sc.pos).toBe(1);
  });

  it('decodes strings with any escapes, surrogate pairs, lone surrogates and raw Unicode as JSON.parse does', () => {
    const g = new JsonGen(rng(2));
    for (let i = 0; i < 20_000; i++) {
      const t = g.str(g.text(12), g.chance(0.5) ? 0 : 0.4);
      const sc = scannerOn(`${t}, 1`);
      expect(sc.string(), t).toBe(JSON.parse(t) as string);
      expect(sc.pos, t).toBe(Buffer.byteLength(t));
    }
  });

  it('measures text (bytes, code points, trimmed bytes) as measureText does on the decoded string', () => {
    const g = new JsonGen(rng(3));
    for (let i = 0; i < 20_000; i++) {
      const value = g.chance(0.3) ? `${g.text(3)}${g.text(40, true)}${g.text(3)}` : g.text(30, g.chance(0.3));
      const t = g.str(value, g.chance(0.5) ? 0 : 0.3);
      const sc = scannerOn(`${t}}`);
      sc.text();
      const m = measureText(JSON.parse(t) as string);
      expect({ bytes: sc.bytes, chars: sc.chars, trimmed: sc.trimmed }, t).toEqual({ bytes: m.bytes, chars: m.chars, trimmed: m.trimmed });
      expect(sc.pos, t).toBe(Buffer.byteLength(t));
    }
  });

  it('refuses malformed strings: unterminated, raw control characters, bad escapes', () => {
    for (const t of ['"abc', '"a\tb"', '"a\u0001"', '"\\x"', '"\\u12G4"', '"\\u12"', '"\\"']) {
      expect(() => scannerOn(t).string(), JSON.stringify(t)).toThrow(expect.objectContaining(FALLBACK));
      expect(() => scannerOn(t).text(), JSON.stringify(t)).toThrow(expect.objectContaining(FALLBACK));
    }
  });

  it('matches raw key bytes only for keys no other spelling can produce', () => {
    for (const k of ['a', 'k\u00e9y', '😀', '']) expect(plainKey(k), k).toBe(true);
    for (const k of ['x"y', 'a\\b', 'tab\t', 'l\ud800', '\udc00x', '\ud800\ud800']) expect(plainKey(k), JSON.stringify(k)).toBe(false);
  });

  it('matches keys by their raw bytes only when they spell the key exactly', () => {
    const key = Buffer.from('gopher__gopher_v1__word_count');
    const words = new Int32Array(key.length >> 2);
    for (let i = 0; i < words.length; i++) words[i] = key.readInt32LE(4 * i);
    expect(scannerOn('"gopher__gopher_v1__word_count":1').isKey(key, words)).toBe(true);
    for (const t of ['"gopher__gopher_v1__word_counts":1', '"gopher__gopher_v1__word_coun":1', '"gopher__gopher_v1__w\\u006frd_count":1', '"Gopher__gopher_v1__word_count":1']) {
      const sc = scannerOn(t);
      expect(sc.isKey(key, words), t).toBe(false);
      expect(sc.pos).toBe(0);
    }
  });
});
