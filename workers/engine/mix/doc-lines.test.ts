// Kept documents written from their lines (docLines) against stringifySorted of the parsed and edited document.
import { describe, expect, it } from 'vitest';
import { addonStatus, type NativeAddon } from '../native-addon.js';
import { rng } from '../testing.js';
import { DocumentLineWriter } from './doc-lines.js';
import { stringifySorted } from './json.js';

const addon = addonStatus().addon as NativeAddon;
type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

/** JSON string texts as writers write them: JSON.stringify's escapes, and others JSON.stringify never writes. */
const STRINGS = [
  '"plain text"',
  '"line\\nbreak\\ttab \\"quoted\\" back\\\\slash"',
  '"caf\\u00e9 \\u00E9"',
  '"a\\/b"',
  '"ctl \\u0001 \\b\\f\\r"',
  '"ünïcödé 😀 \u2028"',
  '"lone \\ud800 half"',
  '""',
];
const NUMBERS = ['0', '-1', '1.5', '1.0', '1e-7', '2E3', '-0', '0.1', '123456789012345678', '0.30000000000000004'];

function value(r: Rand, depth: number): string {
  const k = r();
  if (depth > 2 || k < 0.4) return pick(r, STRINGS);
  if (k < 0.6) return pick(r, NUMBERS);
  if (k < 0.65) return pick(r, ['true', 'false', 'null']);
  if (k < 0.8) return `[${Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1)).join(',')}]`;
  return `{${Array.from({ length: Math.floor(r() * 3) }, () => `"${pick(r, ['b', 'a', '0', 'z'])}":${value(r, depth + 1)}`).join(',')}}`;
}

function docLine(r: Rand, i: number): string {
  const members = [`"id":"d${i}"`, `"text":${pick(r, STRINGS)}`, `"source":"web"`];
  if (r() < 0.7) members.push(`"metadata":{"url":"https://e.org/${i}","b":1}`);
  if (r() < 0.5) members.push(`"added":${value(r, 0)}`);
  if (r() < 0.2) members.push(`"${pick(r, ['10', '2', '__proto__', 'Zed', 'é', 'text'])}":${value(r, 0)}`);
  if (r() < 0.1) members.push(`"attributes":{"own":[[0,1,1]]}`);
  if (r() < 0.5) members.reverse();
  const line = `{${members.join(r() < 0.05 ? ', ' : ',')}}`;
  return r() < 0.05 ? ` ${line}` : line;
}

describe.runIf(addonStatus().addon !== null)('documents written from their lines', () => {
  it('writes what stringifySorted writes for the parsed document, after the edits the mixer makes', () => {
    const r = rng(21);
    const writer = new DocumentLineWriter(addon);
    let fromLine = 0;
    for (let batch = 0; batch < 40; batch++) {
      const lines = Array.from({ length: 50 }, (_, i) => docLine(r, i)).filter((l) => {
        try {
          JSON.parse(l);
          return true;
        } catch {
          return false;
        }
      });
      writer.scan(lines);
      lines.forEach((line, i) => {
        const doc = JSON.parse(line) as Record<string, unknown>;
        // The mixer's edits: provenance, replaced text, discarded fields, merged attributes.
        const meta = doc.metadata;
        doc.metadata = { ...(meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : {}), provenance: `f:${i}` };
        const textChanged = r() < 0.3;
        if (textChanged) doc.text = `${String(doc.text)} |||EMAIL||| \n`;
        if (r() < 0.1) delete doc.source;
        let attributes: string | null = null;
        if (r() < 0.5) {
          const merged = { b: [[0, 1, 0.5]], a: [], ...(doc.attributes as object | undefined) };
          doc.attributes = merged;
          attributes = stringifySorted(merged);
        }
        const written = writer.write(i, doc, attributes, textChanged);
        expect(written, line).toBe(stringifySorted(doc));
        if (written.includes(line.slice(line.indexOf('"text":'), line.indexOf('"text":') + 12))) fromLine++;
      });
    }
    expect(fromLine).toBeGreaterThan(200);
  });

  it('copies members from the line only where it read the line and the member is canonical', () => {
    const writer = new DocumentLineWriter(addon);
    const lines = ['{"id":"a","text":"x\\u0041y","n":1.0,"s":"k\\ny"}', '{"id":"b", "text":"t"}', '{"id":"c","id":"d","text":"u"}'];
    writer.scan(lines);
    lines.forEach((line, i) => {
      const doc = JSON.parse(line) as Record<string, unknown>;
      expect(writer.write(i, doc, null, false)).toBe(stringifySorted(doc));
    });
    expect(writer.write(0, JSON.parse(lines[0] as string) as Record<string, unknown>, null, false)).toBe('{"id":"a","n":1,"s":"k\\ny","text":"xAy"}');
  });
});
