// The addon's attribute-line reader against JSON.parse and stringifySorted: random and mutated lines, merged output.
import { describe, expect, it } from 'vitest';
import { addonStatus, type NativeAddon } from '../native-addon.js';
import { rng } from '../testing.js';
import { AttributeFileReader, MergedAttributesWriter } from './attr-lines.js';
import { mergeOwnedAttributeSets } from './fate.js';
import { stringifySorted } from './json.js';

const addon = addonStatus().addon as NativeAddon;
type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** A number's JSON text, canonical or in one of the forms JSON allows and JavaScript does not write. */
function numberText(r: Rand): string {
  const forms: (() => string)[] = [
    () => String(Math.floor(r() * 1000)),
    () => String(Math.round(r() * 1e5) / 1e5),
    () => String(r()),
    () => String(-r() * 10 ** Math.floor(r() * 30 - 15)),
    () => String(Math.floor(r() * 2 ** 53)),
    () => pick(r, ['1.0', '0.50', '1e-7', '1E5', '2.5e+3', '-0', '-0.0', '0.0000001', '0.000001', '12345678901234567', '123456789012345678901', '0.30000000000000004', '1e400', '-1e-400', '5e-324']),
    () => `${Math.floor(r() * 100)}.${String(Math.floor(r() * 1e6)).padStart(6, '0')}`,
  ];
  return pick(r, forms)();
}

const KEY_PARTS = ['gopher', 'word_count', 'en', 'doc_count', 'x', 'é', '😀', 'a b', '__proto__', '0', '10', 'Z', 'constructor'];

function stringText(r: Rand): string {
  const s = pick(r, ['plain', 'ünïcode', '😀 pair', 'tab\\there', 'quote\\"d', '\\u0041', 'slash\\/', '', 'spaced out']);
  return `"${s}"`;
}

/** A JSON value's text; compact unless `loose` (then sometimes with whitespace). */
function valueText(r: Rand, depth: number, loose: boolean): string {
  const sp = (): string => (loose && r() < 0.1 ? pick(r, [' ', '\n', '\t']) : '');
  const k = r();
  if (depth > 2 || k < 0.35) {
    const spans = Array.from({ length: Math.floor(r() * 3) }, () => `[${numberText(r)},${numberText(r)},${numberText(r)}]`);
    return `[${spans.join(',')}]`;
  }
  if (k < 0.5) return numberText(r);
  if (k < 0.6) return stringText(r);
  if (k < 0.65) return pick(r, ['true', 'false', 'null']);
  if (k < 0.8) return `[${sp()}${Array.from({ length: Math.floor(r() * 3) }, () => valueText(r, depth + 1, loose)).join(`,${sp()}`)}]`;
  return `{${Array.from({ length: Math.floor(r() * 3) }, () => `"${pick(r, KEY_PARTS)}":${sp()}${valueText(r, depth + 1, loose)}`).join(',')}}`;
}

/** An attribute line for `id` with `keys`, members in random places, sometimes loose or odd. */
function lineText(r: Rand, id: string, keys: readonly string[], loose: boolean): string {
  const attrs = `{${keys.map((k) => `"${k}":${valueText(r, 0, loose)}`).join(',')}}`;
  const members = [`"id":"${id}"`, `"attributes":${attrs}`];
  if (r() < 0.5) members.push(`"source":${stringText(r)}`);
  if (r() < 0.2) members.push(`"extra":${valueText(r, 0, loose)}`);
  if (r() < 0.3) members.reverse();
  return `{${members.join(loose && r() < 0.2 ? ', ' : ',')}}`;
}

function mutate(r: Rand, line: string): string {
  const at = Math.floor(r() * (line.length + 1));
  const c = pick(r, ['{', '}', '[', ']', '"', ',', ':', '0', '9', '.', 'e', '-', ' ', '\\', 'a', '\u0001', '\ud800']);
  return r() < 0.5 ? line.slice(0, at) + line.slice(at + 1) : line.slice(0, at) + c + line.slice(at);
}

/** What the reader says of line i, checked against JSON.parse of the line (throws on disagreement). */
function check(reader: AttributeFileReader, lines: readonly string[], i: number, id: string, wanted: ReadonlySet<string>): boolean {
  const line = lines[i] as string;
  let parsed: { id?: unknown; attributes?: Record<string, unknown> } | undefined;
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  if (!reader.has(i, id)) return false;
  // Read ⇒ JSON.parse reads it too, with this id and these members.
  expect(parsed, line).toBeDefined();
  expect(parsed?.id, line).toBe(id);
  const attrs = parsed?.attributes as Record<string, unknown>;
  const shape = reader.shape(i);
  // Object.keys lists index-like names first; the shape keeps the line's order.
  expect([...shape.keys].sort(), line).toEqual(Object.keys(attrs).sort());
  const got: Record<string, unknown> = {};
  reader.addWanted(i, got);
  for (const key of Object.keys(attrs)) {
    if (wanted.has(key)) expect(Object.is(stringifySorted(got[key]), stringifySorted(attrs[key])) && sameNumbers(got[key], attrs[key]), `${line} ${key}`).toBe(true);
    else expect(Object.hasOwn(got, key)).toBe(false);
  }
  shape.keys.forEach((key, m) => expect(reader.text(i, m), `${line} ${key}`).toBe(stringifySorted(attrs[key])));
  return true;
}

/** Deep equality that tells -0 from 0 (stringifySorted writes both as 0). */
function sameNumbers(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, k) => sameNumbers(x, b[k]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') return Object.keys(a).every((k) => sameNumbers((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  return a === b;
}

describe.runIf(addonStatus().addon !== null)('attribute lines read by the addon', () => {
  const wanted = new Set(['gopher', 'en', 'x', '0', 'constructor', 'a b']);

  it('agrees with JSON.parse on every line it reads', () => {
    const r = rng(7);
    let read = 0;
    for (let batch = 0; batch < 60; batch++) {
      const reader = new AttributeFileReader(addon, wanted);
      const keys = [...new Set(Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick(r, KEY_PARTS)))];
      const ids = Array.from({ length: 64 }, (_, i) => `doc-${batch}-${i}${i % 9 === 0 ? '-é😀' : ''}`);
      // Lines of one shape mostly (as files are), some with other keys, loose text, or mutated.
      const lines = ids.map((id, i) => {
        const ks = r() < 0.8 ? keys : keys.slice(0, Math.floor(r() * keys.length));
        const line = lineText(r, id, ks, r() < 0.15);
        return i % 7 === 3 ? mutate(r, line) : line;
      });
      reader.scan(lines);
      lines.forEach((_, i) => {
        if (check(reader, lines, i, ids[i] as string, wanted)) read++;
      });
      // Another document's id: left to JSON.parse (which reports the mismatch).
      expect(reader.has(0, 'another-id')).toBe(false);
    }
    expect(read).toBeGreaterThan(1500);
  });

  it('reads every line JSON.stringify writes without escapes, canonical members written as read', () => {
    const r = rng(9);
    const ids = Array.from({ length: 500 }, (_, i) => `c${i}`);
    const lines = ids.map((id) => {
      const attributes = { b: [[0, 10, Math.round(r() * 1e4) / 1e4]], a: [[1, 2, 3]], 'ü😀': [], c: [['x', true, null]], d: r() < 0.5 ? 0.1 : 12 };
      return JSON.stringify({ id, attributes, source: 'web' });
    });
    const reader = new AttributeFileReader(addon, new Set(['a', 'b']));
    reader.scan(lines);
    lines.forEach((line, i) => {
      expect(check(reader, lines, i, ids[i] as string, new Set(['a', 'b'])), line).toBe(true);
      const attrs = line.slice(line.indexOf('"attributes":') + 13, line.indexOf(',"source"'));
      reader.shape(i).keys.forEach((key, m) => expect(attrs).toContain(`"${key}":${reader.text(i, m)}`));
    });
  });

  it('reads spans with every number JSON.parse reads, bit for bit', () => {
    const r = rng(11);
    const reader = new AttributeFileReader(addon, new Set(['s']));
    const lines = Array.from({ length: 4000 }, (_, i) => `{"id":"${i}","attributes":{"s":[[${numberText(r)},${numberText(r)},${numberText(r)}],[0,1,${numberText(r)}]]}}`);
    reader.scan(lines);
    lines.forEach((line, i) => expect(check(reader, lines, i, String(i), new Set(['s'])), line).toBe(true));
  });

  it('refuses every mutation JSON.parse refuses', () => {
    const r = rng(5);
    const base = Array.from({ length: 300 }, (_, i) => lineText(r, `d${i}`, ['gopher', 'en', 'x'], false));
    for (let round = 0; round < 20; round++) {
      const lines = base.map((l) => {
        let m = mutate(r, l);
        if (r() < 0.5) m = mutate(r, m);
        return m;
      });
      const reader = new AttributeFileReader(addon, wanted);
      reader.scan(lines);
      lines.forEach((_, i) => check(reader, lines, i, `d${i}`, wanted));
    }
  });

  it('writes merged attributes as stringifySorted writes the merged object', () => {
    const r = rng(3);
    const files = 3;
    const ids = Array.from({ length: 200 }, (_, i) => `m${i}`);
    const keysOf = [['gopher', 'x', 'Z'], ['en', 'x'], ['0', '10', 'é', 'gopher']];
    const lines = keysOf.map((keys, a) => ids.map((id, i) => lineText(r, id, i % 13 === a ? keys.slice(1) : keys, false)));
    const readers = lines.map((ls) => {
      const reader = new AttributeFileReader(addon, wanted);
      reader.scan(ls);
      return reader;
    });
    const writer = new MergedAttributesWriter();
    let compared = 0;
    ids.forEach((id, i) => {
      if (!readers.every((f) => f.has(i, id))) return;
      const expected: Record<string, unknown> = { id };
      mergeOwnedAttributeSets(expected, lines.map((ls) => (JSON.parse(ls[i] as string) as { attributes: Record<string, unknown> }).attributes));
      expect(writer.text(readers, i)).toBe(stringifySorted(expected.attributes));
      compared++;
    });
    expect(compared).toBeGreaterThan(files * 10);
  });
});
