import { describe, expect, it } from 'vitest';
import type { DocumentSpan } from '../../../shared/contract/index.js';
import { rng } from '../testing/rng.js';
import { coversText, groupShown, markSegments, segmentText, shownSpans, spanGroups } from './spans.js';

const span = (start: number, end: number, key = 'k', set = 's'): DocumentSpan => ({ set, key, start, end, score: 1 });

describe('segmentText', () => {
  it('covers the text with segments that carry every overlapping span', () => {
    const a = span(2, 6, 'a');
    const b = span(4, 10, 'b');
    const segs = segmentText(12, [a, b]);
    expect(segs.map((s) => [s.start, s.end, s.spans.map((x) => x.key).join('')])).toEqual([
      [0, 2, ''],
      [2, 4, 'a'],
      [4, 6, 'ab'],
      [6, 10, 'b'],
      [10, 12, ''],
    ]);
  });

  it('clamps spans to the text and ignores empty ones', () => {
    expect(segmentText(5, [span(3, 99), span(2, 2), span(-4, 1)]).map((s) => [s.start, s.end, s.spans.length])).toEqual([
      [0, 1, 1],
      [1, 3, 0],
      [3, 5, 1],
    ]);
  });

  it('agrees with a per-character check on random spans', () => {
    const r = rng(7);
    for (let trial = 0; trial < 50; trial++) {
      const len = 1 + Math.floor(r() * 60);
      const spans = Array.from({ length: Math.floor(r() * 8) }, (_, i) => {
        const s = Math.floor(r() * len);
        return span(s, s + Math.floor(r() * 20), `k${i}`);
      });
      const segs = segmentText(len, spans);
      expect(segs[0]?.start).toBe(0);
      expect(segs[segs.length - 1]?.end).toBe(len);
      for (const seg of segs) {
        for (let c = seg.start; c < seg.end; c++) {
          const expected = spans.filter((s) => s.start <= c && c < Math.min(s.end, len)).map((s) => s.key);
          expect(seg.spans.map((s) => s.key)).toEqual(expected);
        }
      }
    }
  });
});

describe('span groups', () => {
  const text = '  Contact a@b.org or c@d.org today.  ';
  const spans = [
    span(0, text.length, 'stats__length', 'stats'),
    span(2, 35, 'stats__words', 'stats'), // whitespace aside, this covers the text too
    span(10, 17, 'pii__EMAIL', 'pii'),
    span(21, 28, 'pii__EMAIL', 'pii'),
    span(0, text.length, 'pii__doc_count', 'pii'),
  ];

  it('calls a key document-wide when its spans cover the text, alone or together, and groups per set and reach', () => {
    expect(coversText(text, [{ start: 2, end: 35 }])).toBe(true);
    expect(coversText(text, [{ start: 3, end: 35 }])).toBe(false);
    // Per-paragraph spans tile the text (the gap between them is whitespace): together they cover it.
    expect(coversText('one.\n\ntwo.', [{ start: 6, end: 10 }, { start: 0, end: 4 }])).toBe(true);
    expect(coversText('one.\n\ntwo.', [{ start: 0, end: 4 }])).toBe(false);
    expect(spanGroups(text, spans).map((g) => [g.id, g.keys.join(' '), g.spans])).toEqual([
      ['span:pii', 'pii__EMAIL', 2],
      ['doc:pii', 'pii__doc_count', 1],
      ['doc:stats', 'stats__length stats__words', 2],
    ]);
  });

  it('starts with span-level groups on and document-wide ones off, so the whole text is not painted over the PII', () => {
    const shown = shownSpans(text, spans, {});
    expect(shown.map((s) => [s.key, s.start])).toEqual([
      ['pii__EMAIL', 10],
      ['pii__EMAIL', 21],
    ]);
    // The segment over the first address carries only its own span, not the document-wide ones.
    expect(segmentText(text.length, shown).find((g) => g.start === 10)?.spans.map((s) => s.key)).toEqual(['pii__EMAIL']);
    expect(groupShown({}, { id: 'doc:stats', docWide: true })).toBe(false);
    expect(groupShown({ 'doc:stats': true }, { id: 'doc:stats', docWide: true })).toBe(true);
    expect(shownSpans(text, spans, { 'doc:stats': true, 'span:pii': false }).map((s) => s.key)).toEqual(['stats__length', 'stats__words']);
  });

  it('treats paragraph spans that tile the text as document-wide', () => {
    const doc = 'First paragraph.\nSecond one, with a@b.org.';
    const paras = [span(0, 16, 'stats__paragraph', 'stats'), span(17, doc.length, 'stats__paragraph', 'stats'), span(35, 42, 'pii__EMAIL', 'pii')];
    expect(spanGroups(doc, paras).map((g) => [g.id, g.spans])).toEqual([
      ['span:pii', 1],
      ['doc:stats', 2],
    ]);
    expect(shownSpans(doc, paras, {}).map((s) => s.key)).toEqual(['pii__EMAIL']);
  });

  it('marks search matches on top of the spans without listing them as spans', () => {
    const segs = markSegments(12, [span(2, 6, 'a')], [{ start: 4, end: 9 }]);
    expect(segs.map((g) => [g.start, g.end, g.spans.map((x) => x.key).join(''), g.match])).toEqual([
      [0, 2, '', false],
      [2, 4, 'a', false],
      [4, 6, 'a', true],
      [6, 9, '', true],
      [9, 12, '', false],
    ]);
    expect(markSegments(3, [])).toEqual([{ start: 0, end: 3, spans: [], match: false }]);
  });
});

