// The shared per-document rules: the mixer and the index both call these, so their answers are pinned here once.
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { checkAttributeLine, checkDocumentLine, mergeAttributeSets, mergeOwnedAttributeSets, selectedSpans, trimmedUtf8Length } from './fate.js';

describe('fate.ts', () => {
  it('checks document lines: object, id, depth — as errors returned, never thrown', () => {
    expect(checkDocumentLine('{"id":"a","text":"x"}', 'f', 1)).toEqual({ id: 'a', text: 'x' });
    for (const [line, msg] of [
      ['{"text":"x"}', "f:2: document has no 'id'"],
      ['[1]', 'f:2: a document line must be a JSON object'],
      ['{"id":', 'f:2: malformed JSON'],
      [`{"id":1,"a":${'['.repeat(200)}${']'.repeat(200)}}`, 'f:2: document is nested more than 127'],
    ] as const) {
      const r = checkDocumentLine(line, 'f', 2);
      expect(r).toBeInstanceOf(AssayError);
      expect((r as AssayError).message.startsWith(msg)).toBe(true);
    }
  });

  it('checks attribute lines: a foreign id is a MISMATCH naming both files, other faults are PARSE', () => {
    expect(checkAttributeLine('{"id":1.0,"attributes":{"k":[[0,1,1]]}}', 1, 'docs', 'attrs', 3)).toEqual({ k: [[0, 1, 1]] });
    const other = checkAttributeLine('{"id":2,"attributes":{}}', 1, 'docs', 'attrs', 3) as AssayError;
    expect([other.code, other.message]).toEqual(['MISMATCH', 'attrs:3: mismatched ids: documents file docs has id 1 but attributes file has 2']);
    expect((checkAttributeLine('{"id":1,"attributes":[]}', 1, 'docs', 'attrs', 3) as AssayError).code).toBe('PARSE');
    expect((checkAttributeLine('{"attributes":{}}', 1, 'docs', 'attrs', 3) as AssayError).detail).toBe("attribute record has no 'id'");
  });

  it("merges like Dolma: later sets win, the document's own attributes are extended, __proto__ survives", () => {
    const doc: Record<string, unknown> = { id: 1, attributes: { own: 1, k: 0 } };
    mergeAttributeSets(doc, [{ k: 1, a: 1 }, JSON.parse('{"k":2,"__proto__":[[0,1,1]]}') as Record<string, unknown>]);
    expect(JSON.stringify(doc.attributes)).toBe('{"own":1,"k":2,"a":1,"__proto__":[[0,1,1]]}');
    const bare: Record<string, unknown> = { id: 1, attributes: 'x' };
    mergeAttributeSets(bare, [{ k: 1 }]);
    expect(bare.attributes).toEqual({ k: 1 });
    const none: Record<string, unknown> = { id: 1 };
    mergeAttributeSets(none, []);
    expect(none).toEqual({ id: 1 });
  });

  it('merges owned sets (the mixer: no object per document) into the same members in the same order', () => {
    const sets = (): Record<string, unknown>[] =>
      ['{"k":1,"a":1,"2":0}', '{"k":2,"__proto__":[[0,1,1]],"1":5}', '{"b":3,"a":4}'].map((t) => JSON.parse(t) as Record<string, unknown>);
    for (const attributes of [undefined, 'x', null, [1], { own: 1, k: 0 }, {}]) {
      for (const n of [0, 1, 2, 3]) {
        const copied: Record<string, unknown> = { id: 1, ...(attributes === undefined ? {} : { attributes: structuredClone(attributes) }) };
        const owned: Record<string, unknown> = { id: 1, ...(attributes === undefined ? {} : { attributes: structuredClone(attributes) }) };
        mergeAttributeSets(copied, sets().slice(0, n));
        mergeOwnedAttributeSets(owned, sets().slice(0, n));
        expect(JSON.stringify(owned)).toBe(JSON.stringify(copied));
        expect(Object.keys(owned)).toEqual(Object.keys(copied));
      }
    }
  });

  it('validates selected spans as the mixer does', () => {
    expect(selectedSpans(null, 'f', '$.a')).toBeNull();
    expect(selectedSpans([[0, 2, 0.5, 'extra']], 'f', '$.a')).toEqual([{ start: 0, end: 2, score: 0.5 }]);
    expect(selectedSpans(3, 'f', '$.a')).toBe('f.span `$.a` selected a number, not a list of spans');
    expect(selectedSpans([[0.5, 2, 1]], 'f', '$.a')).toMatch(/not a \[start, end, score\] span with integer offsets/);
    expect(trimmedUtf8Length('\u0085 é \u00a0')).toBe(2);
  });
});
