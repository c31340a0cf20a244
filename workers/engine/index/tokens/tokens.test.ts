// Exact token counts in the index: equal to what `assay tokens` writes per document, incremental, recounted for another tokenizer, cancellable.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../../errors.js';
import { loadManifest } from '../../manifest/read.js';
import { indexManifestPath } from '../../manifest/schema.js';
import { scratchDir, writeJsonl } from '../../testing.js';
import { NEOX_EOS, NEOX_JSON, readOutputs, variedTexts } from '../../tokenize/test-helpers.js';
import { runTokens } from '../../tokenize/runtime.js';
import { buildIndex, countTokens, indexPath, PreviewEngine } from '../index.js';
import { IndexData } from '../store/data.js';
import { openDatabase, SCHEMA_VERSION, schemaVersionOf, setMeta } from '../store/db.js';
import { openCountingTokenizer } from './tokenizer.js';

const SOURCES = ['web', 'books', 'code'];

/** Three sources in three files; empty, whitespace-only, EOS-terminated, non-ASCII and non-string texts among them. */
function corpus(root: string, extra = 0): void {
  const texts = variedTexts(7, 60 + extra);
  const special = ['', '  \n\t\u3000 ', 'the end<|endoftext|>', '  trailing space then EOS <|endoftext|>  \n', 'Ünïcödé e\u0301 ﬁ 한국어 😀', '<|endoftext|>'];
  SOURCES.forEach((source, s) => {
    const docs: Record<string, unknown>[] = texts.filter((_, i) => i % 3 === s).map((text, i) => ({ id: `${source}-${i}`, text, source }));
    special.forEach((text, i) => docs.splice(i * 3, 0, { id: `${source}-special-${i}`, text, source }));
    if (s === 2) docs.push({ id: 'code-number', text: 42, source });
    writeJsonl(join(root, `documents/${source}.jsonl.gz`), docs);
  });
}

/** Every indexed document's id → (count, exact). */
function indexed(root: string): Map<string, { tokens: number; exact: boolean }> {
  const db = openDatabase(indexPath(root), { readonly: true });
  try {
    const data = new IndexData(db);
    const out = new Map<string, { tokens: number; exact: boolean }>();
    for (const r of db.prepare('SELECT file, ord, id FROM docs').all() as { file: number; ord: number; id: string }[]) {
      const g = (data.byId.get(r.file)?.start ?? NaN) + r.ord;
      out.set(r.id, { tokens: data.tokens[g] as number, exact: data.tokensExact(g) });
    }
    return out;
  } finally {
    db.close();
  }
}

/** Tokens per id as `assay tokens` writes them (its CSV ranges); skipped documents are absent. */
async function written(root: string, nameOrPath: string, eosTokenId: number, dtype: 'uint16' | 'uint32' = 'uint16'): Promise<{ byId: Map<string, number>; perSource: Record<string, { tokens: number }> }> {
  const destination = scratchDir();
  const s = await runTokens({ documents: ['documents/*.jsonl.gz'], destination, tokenizer: { nameOrPath, eosTokenId }, dtype, cwd: root, skipBadLines: true });
  return { byId: new Map(readOutputs(destination, dtype === 'uint16' ? 2 : 4).map((r) => [r.id, r.end - r.start])), perSource: s.perSource };
}

describe('assay index --tokenizer', () => {
  it.each([
    ['gpt2', 'gpt2', 50256],
    ['a tokenizer.json (GPT-NeoX, NFC normalizer)', NEOX_JSON, NEOX_EOS],
  ])('counts every document as `assay tokens` writes it: %s, in-process and on the pool', async (_what, tokenizer, eos) => {
    const root = scratchDir();
    corpus(root);
    const r = await buildIndex(root, { tokenizer, search: false });
    expect(r.tokens).toMatchObject({ tokenizer: { eos }, files: 3, skippedFiles: 0, uncounted: 0 });
    const { byId, perSource } = await written(root, tokenizer, eos);
    const got = indexed(root);
    expect(got.size).toBe(3 * 6 + 60 + 1);
    for (const [id, c] of got) {
      expect(c.exact, id).toBe(true);
      // A document `assay tokens` skips (empty once stripped, not a string) has no range: 0 tokens.
      expect(c.tokens, id).toBe(byId.get(id) ?? 0);
    }
    for (const s of SOURCES) expect([...got].filter(([id]) => id.startsWith(s)).reduce((n, [, c]) => n + c.tokens, 0)).toBe(perSource[s]?.tokens);
    expect(r.tokens?.tokens).toBe(Object.values(perSource).reduce((n, c) => n + c.tokens, 0));
    // The index's run manifest says the same, labelled exact.
    const { manifest } = await loadManifest(indexManifestPath(root));
    for (const s of SOURCES) expect(manifest.totals.bySource?.[s]?.tokens).toEqual({ count: perSource[s]?.tokens, kind: 'exact' });
    expect(manifest.config).toMatchObject({ tokenizer: { name: tokenizer, eos } });
    // The cases that differ from a naive count: skipped texts, and texts already ending with EOS get none appended.
    expect(got.get('web-special-0')?.tokens).toBe(0);
    expect(got.get('web-special-1')?.tokens).toBe(0);
    expect(got.get('code-number')?.tokens).toBe(0);
    expect(got.get('web-special-5')?.tokens).toBe(1);
    // Two processes count the same (the pool serves the tokenizer by name or absolute path).
    const again = scratchDir();
    corpus(again);
    await buildIndex(again, { search: false });
    const pooled = await countTokens(again, { processes: 2, counter: await openCountingTokenizer(tokenizer, undefined, root) });
    expect(pooled).toMatchObject({ files: 3, docs: got.size, tokens: r.tokens?.tokens });
    expect(indexed(again)).toEqual(got);
  });

  it('is incremental: the same tokenizer counts only new or changed files, also when not given again; another one recounts', async () => {
    const root = scratchDir();
    corpus(root);
    expect((await buildIndex(root, { tokenizer: 'gpt2', search: false })).tokens).toMatchObject({ files: 3, skippedFiles: 0 });
    expect((await buildIndex(root, { tokenizer: 'gpt2', search: false })).tokens).toMatchObject({ files: 0, docs: 0, skippedFiles: 3 });
    corpus(root, 9);
    // Without --tokenizer the index keeps counting with the one it records (only web, books, code changed: all three here).
    const changed = await buildIndex(root, { search: false });
    expect(changed.tokens).toMatchObject({ tokenizer: { name: 'gpt2' }, files: 3, docs: 3 * 6 + 69 + 1 });
    writeJsonl(join(root, 'documents/more.jsonl.gz'), [{ id: 'm1', text: 'one more', source: 'web' }]);
    expect((await buildIndex(root, { search: false })).tokens).toMatchObject({ files: 1, docs: 1, skippedFiles: 3 });
    const gpt2 = indexed(root);
    const notes: string[] = [];
    const neox = await buildIndex(root, { tokenizer: NEOX_JSON, search: false, log: (l) => notes.push(l) });
    expect(neox.tokens).toMatchObject({ tokenizer: { name: NEOX_JSON, eos: NEOX_EOS }, files: 4, skippedFiles: 0 });
    expect(notes.join('\n')).toMatch(/recounting every file with .*gpt-neo-test-tokenizer\.json \(the index counted with gpt2\)/);
    const recounted = indexed(root);
    expect([...recounted].some(([id, c]) => gpt2.get(id)?.tokens !== c.tokens)).toBe(true);
    expect((await written(root, NEOX_JSON, NEOX_EOS)).byId.get('m1')).toBe(recounted.get('m1')?.tokens);
  });

  it('a recorded tokenizer.json that is gone leaves new files estimated, with a note; an index without counts keeps estimates', async () => {
    const root = scratchDir();
    corpus(root);
    const plain = await buildIndex(root, { search: false });
    expect(plain.tokens).toBeUndefined();
    expect([...indexed(root).values()].every((c) => !c.exact)).toBe(true);
    const copy = join(scratchDir(), 'tokenizer.json');
    copyFileSync(NEOX_JSON, copy);
    await buildIndex(root, { tokenizer: copy, search: false });
    rmSync(copy);
    writeJsonl(join(root, 'documents/more.jsonl.gz'), [{ id: 'm1', text: 'one more', source: 'web' }]);
    const notes: string[] = [];
    expect((await buildIndex(root, { search: false, log: (l) => notes.push(l) })).tokens).toBeUndefined();
    expect(notes.join('\n')).toMatch(/token counts: not updated \(.*no tokenizer file at .*tokenizer\.json.*\); new or changed files keep estimates/);
    const got = indexed(root);
    expect(got.get('m1')?.exact).toBe(false);
    expect(got.get('web-0')?.exact).toBe(true);
  });

  it('an index of schema 1 (no token_counts table) still opens, and is upgraded in place, not rebuilt', async () => {
    const root = scratchDir();
    corpus(root);
    await buildIndex(root, { search: false });
    const db = openDatabase(indexPath(root));
    db.exec('DROP TABLE token_counts');
    setMeta(db, 'schema_version', '1');
    db.close();
    const e = PreviewEngine.open(root);
    const keepAll = 'streams:\n  - name: s\n    documents: [documents/*.gz]\n    output: {path: out}\n    filter: {exclude: ["$.attributes[?(@.nothing > 1)]"]}\n';
    expect(e.preview(keepAll).tokens.kind).toBe('estimate');
    e.close();
    const notes: string[] = [];
    const r = await buildIndex(root, { tokenizer: 'gpt2', search: false, log: (l) => notes.push(l) });
    expect(notes).toEqual([]);
    expect(r).toMatchObject({ skippedFiles: 3, tokens: { files: 3 } });
    const after = openDatabase(indexPath(root), { readonly: true });
    expect(schemaVersionOf(after)).toBe(SCHEMA_VERSION);
    after.close();
    expect([...indexed(root).values()].every((c) => c.exact)).toBe(true);
  });

  it('cancels between files, keeping the files it finished; a rerun counts only the rest', async () => {
    const root = scratchDir();
    corpus(root);
    await buildIndex(root, { search: false });
    const counter = await openCountingTokenizer('gpt2', undefined, root);
    const ac = new AbortController();
    const cancelled = countTokens(root, { counter, signal: ac.signal, onProgress: (p) => p.filesDone === 1 && ac.abort() });
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await countTokens(root, { counter })).toMatchObject({ files: 2, skippedFiles: 1 });
  });

  it('a bad tokenizer fails before indexing, naming the option and the path', async () => {
    const root = scratchDir();
    corpus(root);
    const bad = buildIndex(root, { tokenizer: 'no/such/tokenizer.json', cwd: root });
    await expect(bad).rejects.toBeInstanceOf(AssayError);
    await expect(bad).rejects.toThrow(`tokenizer: no tokenizer file at ${join(root, 'no/such/tokenizer.json')}`);
    await expect(buildIndex(root, { tokenizer: 'gpt2', eosTokenId: 70_000 })).rejects.toThrow(/tokenizer\.eos_token_id: 70000 is not a token id of gpt2/);
    expect(existsSync(indexPath(root))).toBe(false);
  });
});
