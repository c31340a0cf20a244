// The preview's token figures with counts in the index: exact sums of the counts, labelled exact / partial / estimate, and why.
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../../testing.js';
import { NEOX_JSON, variedTexts } from '../../tokenize/test-helpers.js';
import { buildIndex, PreviewEngine } from '../index.js';

/** Two sources in two files, each document with a score attribute in set q. */
function corpus(root: string): void {
  const texts = variedTexts(3, 40);
  for (const [f, source] of ['web', 'books'].entries()) {
    const docs = texts.filter((_, i) => i % 2 === f).map((text, i) => ({ id: `${source}-${i}`, text, source }));
    writeJsonl(join(root, `documents/${source}.jsonl.gz`), docs);
    writeJsonl(join(root, `attributes/q/${source}.jsonl.gz`), docs.map((d, i) => ({ id: d.id, attributes: { q__t__score: [[0, 4, (i % 10) / 10]] } })));
  }
}

const recipe = (documents = 'documents/*.gz', extra = ''): string => `streams:
  - name: s
    documents: [${documents}]
    attributes: [q]
    output: {path: out/s}
    filter:
      exclude:
        - "$.attributes[?(@.q__t__score[0][2] > 0.65)]"
${extra}`;

/** Sum of the engine's per-document figures over ids (all documents when `ids` is undefined), per source too. */
function sums(e: PreviewEngine, ids?: readonly string[]): { tokens: number; bySource: Record<string, number>; exact: boolean } {
  const want = ids && new Set(ids);
  const page = e.documentsPage({ offset: 0, limit: 1000 });
  const out = { tokens: 0, bySource: {} as Record<string, number>, exact: true };
  for (const r of page.rows) {
    if (want && !want.has(r.id)) continue;
    out.tokens += r.tokens;
    out.bySource[r.source] = (out.bySource[r.source] ?? 0) + r.tokens;
    out.exact &&= r.tokensExact === true;
  }
  return out;
}

describe('preview token figures', () => {
  it('estimate without counts; exact, with the tokenizer named, once counted: totals, kept, per source and per rule are sums of the counts', async () => {
    const root = scratchDir();
    corpus(root);
    await buildIndex(root, { search: false });
    let e = PreviewEngine.open(root);
    const before = e.preview(recipe());
    expect(before.tokens).toEqual({ kind: 'estimate', note: 'estimated tokens (⌈UTF-8 bytes / 4⌉): no tokenizer count in the index' });
    expect(e.sources().every((s) => s.tokensExact === false)).toBe(true);
    e.close();

    await buildIndex(root, { tokenizer: 'gpt2', search: false });
    e = PreviewEngine.open(root);
    try {
      const r = e.preview(recipe(), { ids: true });
      expect(r.tokens).toMatchObject({ kind: 'exact', tokenizer: 'gpt2' });
      const all = sums(e);
      expect(all.exact).toBe(true);
      expect(r.total.tokens).toBe(all.tokens);
      expect(r.total.tokens).not.toBe(before.total.tokens);
      const kept = sums(e, r.keptIds);
      expect(r.total.kept.tokens).toBe(kept.tokens);
      expect(r.total.kept.bySource).toEqual({ web: { docs: expect.any(Number), tokens: kept.bySource.web }, books: { docs: expect.any(Number), tokens: kept.bySource.books } });
      // One exclude rule: what it drops alone is everything not kept.
      expect(r.rules[0]?.alone.tokens).toBe(all.tokens - kept.tokens);
      expect(e.sources().map((s) => [s.source, s.tokens, s.tokensExact])).toEqual(expect.arrayContaining([['web', all.bySource.web, true], ['books', all.bySource.books, true]]));
      const data = e.tokenData();
      expect(data.tokenizer).toMatchObject({ name: 'gpt2', eos: 50256 });
      expect(data.uncounted.count()).toBe(0);
      expect(Array.from(data.tokens).reduce((a, b) => a + b, 0)).toBe(all.tokens);
    } finally {
      e.close();
    }
  });

  it('partial when some documents have no count (said how many) or when span replacement changes kept texts', async () => {
    const root = scratchDir();
    corpus(root);
    const tokenizer = join(scratchDir(), 'tokenizer.json');
    copyFileSync(NEOX_JSON, tokenizer);
    await buildIndex(root, { tokenizer, search: false });
    // The tokenizer is gone, so a new file cannot be counted: its documents keep estimates.
    rmSync(tokenizer);
    const more = Array.from({ length: 5 }, (_, i) => ({ id: `more-${i}`, text: `more text ${i}`, source: 'web' }));
    writeJsonl(join(root, 'documents/more.jsonl.gz'), more);
    writeJsonl(join(root, 'attributes/q/more.jsonl.gz'), more.map((d) => ({ id: d.id, attributes: { q__t__score: [[0, 4, 0.1]] } })));
    await buildIndex(root, { search: false, log: () => undefined });
    const e = PreviewEngine.open(root);
    try {
      const r = e.preview(recipe());
      expect(r.tokens).toEqual({ kind: 'partial', tokenizer, note: `${tokenizer} token counts, except: 5 of 45 documents have no ${tokenizer} count and are estimated (⌈UTF-8 bytes / 4⌉)` });
      expect(r.total.tokens).toBe(sums(e).tokens);
      expect(e.sources().find((s) => s.source === 'web')?.tokensExact).toBe(false);
      expect(e.sources().find((s) => s.source === 'books')?.tokensExact).toBe(true);
      // A stream reading only counted files is exact.
      expect(e.preview(recipe('documents/books.jsonl.gz')).tokens.kind).toBe('exact');
      const redacted = e.preview(recipe('documents/books.jsonl.gz', '    span_replacement:\n      - {span: "$.attributes.q__t__score", min_score: 0.05, replacement: "X"}\n'));
      expect(redacted.tokens.kind).toBe('partial');
      expect(redacted.tokens.note).toMatch(/^.*tokenizer\.json token counts, except: \d+ kept document\(s\) have spans replaced: their figures are of the input text$/);
    } finally {
      e.close();
    }
  });
});
