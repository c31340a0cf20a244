// Dolma's inline deduper cases D6–D11 (deduper/cases/inline-cases.json), run through runDedupe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonlFile, scratchDir, writeJsonl } from '../../testing.js';
import { runDedupe } from '../index.js';
import { cpSlice, DOLMA, parseConfig, readFixtureConfig, scratchWithFixture, withOverrides, type Row } from '../test-helpers.js';
import { dedupeWords } from './words.js';

const CASES = JSON.parse(readFileSync(join(DOLMA, 'deduper/cases/inline-cases.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const SPANS = 'bff_duplicate_paragraph_spans';

/** Runs an inline case's config over `texts` (ids "0", "1", …) with a fresh filter. */
async function runInline(texts: string[], config: Record<string, unknown>): Promise<Row[]> {
  const t = { dir: scratchDir('assay-dedupe-inline-') };
  writeJsonl(join(t.dir, 'documents/000.jsonl.gz'), texts.map((text, i) => ({ id: String(i), text, source: 'test' })));
  const bloom = { estimated_doc_count: 100, desired_false_positive_rate: 1e-6, read_only: false, ...(config.bloom_filter as object), file: 'bloom.bin' };
  await runDedupe(parseConfig({ ...config, documents: ['documents/*.jsonl.gz'], bloom_filter: bloom }), { cwd: t.dir });
  return readJsonlFile(join(t.dir, 'attributes', (config.dedupe as { name: string }).name, '000.jsonl.gz')) as Row[];
}

/** Runs a property case (fixture config + overrides) over deduper/documents/000.json.gz. */
async function runProperty(name: string): Promise<{ texts: string[]; rows: Row[] }> {
  const c = CASES[name] as { overrides: Record<string, unknown> };
  const t = scratchWithFixture();
  await runDedupe(parseConfig(withOverrides(readFixtureConfig('dedupe-paragraphs.json'), c.overrides)), { cwd: t.dir });
  const texts = readJsonlFile(join(t.dir, 'deduper/documents/000.json.gz')).map((d) => d.text as string);
  return { texts, rows: readJsonlFile(join(t.dir, 'deduper/attributes/dedupe_paragraphs/000.json.gz')) as Row[] };
}

/** Expected [i, j) per '\n' paragraph, as upstream's property test computes them. */
function paragraphRanges(text: string): { para: string; i: number; j: number }[] {
  const len = Array.from(text).length;
  let j = 0;
  return text.split('\n').map((para) => {
    const i = j;
    j = Math.min(i + Array.from(para).length + 1, len);
    return { para, i, j };
  });
}

describe('Dolma deduper inline cases', () => {
  it('D6: skip_empty true skips the empty paragraph; false marks it (covering exactly "\\n")', async () => {
    const c = CASES.skip_empty as { documents: string[]; config: Record<string, unknown>; expected_with_skip_empty_true: Row[]; expected_with_skip_empty_false_fresh_filter: Row[] };
    expect(await runInline(c.documents, c.config)).toEqual(c.expected_with_skip_empty_true);
    const off = withOverrides(c.config, { 'dedupe.skip_empty': false });
    const rows = await runInline(c.documents, off);
    expect(rows).toEqual(c.expected_with_skip_empty_false_fresh_filter);
    const [a, b] = rows[1]?.attributes[SPANS] ?? [];
    expect(cpSlice(c.documents[1] as string, a?.[0] ?? 0, a?.[1] ?? 0)).toBe('\n');
    expect(cpSlice(c.documents[1] as string, b?.[0] ?? 0, b?.[1] ?? 0)).toBe('More text');
  });

  it('D7: offsets are code points (🀜 counts as one)', async () => {
    const c = CASES.unicode_exact as { paragraphs: string[]; config: Record<string, unknown> };
    const text = c.paragraphs.join('\n');
    const rows = await runInline(['', text], c.config);
    const spans = rows[1]?.attributes[SPANS] ?? [];
    expect(spans.map(([s, e]) => cpSlice(text, s, e))).toEqual([c.paragraphs[2] + '\n', c.paragraphs[5] + '\n']);
    expect(spans.every((s) => s[2] === 1)).toBe(true);
    expect(rows[0]?.attributes).toEqual({});
  });

  it('D8: threshold 0 gives every paragraph a span; the last one may end past len(text)', async () => {
    const c = CASES.unicode_fuzzy_threshold_zero as { paragraphs: string[]; config: Record<string, unknown> };
    const text = c.paragraphs.join('\n');
    const spans = (await runInline([text], c.config))[0]?.attributes[SPANS] ?? [];
    expect(spans).toHaveLength(c.paragraphs.length);
    spans.forEach(([s, e], i) => expect(cpSlice(text, s, e)).toBe(c.paragraphs[i] + (i < spans.length - 1 ? '\n' : '')));
    expect(spans.at(-1)?.[1]).toBe(Array.from(text).length + 1);
  });

  it('D9: separator "tt" → one span per text.split("tt") piece', async () => {
    const { texts, rows } = await runProperty('property_change_splitter');
    rows.forEach((row, i) => expect(row.attributes[SPANS]).toHaveLength((texts[i] as string).split('tt').length));
  });

  it('D10: stride math with threshold 0 — one span per paragraph at the documented offsets', async () => {
    const { texts, rows } = await runProperty('property_stride_math');
    rows.forEach((row, d) => {
      const text = texts[d] as string;
      const spans = row.attributes[SPANS] ?? [];
      const want = paragraphRanges(text);
      expect(spans).toHaveLength(want.length);
      spans.forEach(([s, e], k) => expect(cpSlice(text, s, e)).toBe(cpSlice(text, want[k]?.i ?? 0, want[k]?.j ?? 0)));
    });
  });

  it('D11: skip_short_paragraphs — spans only for paragraphs with enough words', async () => {
    const { texts, rows } = await runProperty('property_stride_math_skip_short');
    let spanned = 0;
    rows.forEach((row, d) => {
      const text = texts[d] as string;
      const spans = row.attributes[SPANS] ?? [];
      const byStart = new Map(spans.map((s) => [s[0], s]));
      for (const { para, i, j } of paragraphRanges(text)) {
        const words = dedupeWords(para).length;
        const span = byStart.get(i);
        // 20 words make one 20-gram, which Dolma also treats as short; ≥ 21 make two or more.
        if (words >= 21) expect(span && cpSlice(text, span[0], span[1])).toBe(cpSlice(text, i, j));
        if (words < 20) expect(span).toBeUndefined();
      }
      spanned += spans.length;
    });
    expect(spanned).toBeGreaterThan(10);
  });
});
