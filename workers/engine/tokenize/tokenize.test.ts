// runTokens end to end: round trip through the CSV, reproducibility, processes, Dolma's shuffle property, BOS/EOS, fields.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { pyStripLinear } from './documents.js';
import { runTokens, summaryPath, type TokensOptions } from './runtime.js';
import { NEOX_EOS, NEOX_JSON, readOutputs, variedTexts } from './test-helpers.js';
import { loadTokenizer } from './tokenizer/load.js';

const neox = { nameOrPath: NEOX_JSON, eosTokenId: NEOX_EOS, padTokenId: 1 };

/** Three files with varied texts, two sources, and some documents that are empty once stripped. */
function corpus(dir: string): Map<string, { text: string; source: string }> {
  const docs = new Map<string, { text: string; source: string }>();
  const texts = variedTexts(5, 90);
  for (let f = 0; f < 3; f++) {
    const rows = texts.slice(f * 30, f * 30 + 30).map((t, i) => {
      const text = i % 9 === 4 ? ' \n\t ' : `  ${t}\n`;
      const row = { id: `f${f}-${i}`, text, source: f === 2 ? 'books' : 'web' };
      docs.set(row.id, row);
      return row;
    });
    writeJsonl(join(dir, `docs/part-${f}.jsonl.gz`), rows);
  }
  return docs;
}

const run = (dir: string, dest: string, extra: Partial<TokensOptions> = {}): ReturnType<typeof runTokens> =>
  runTokens({ documents: ['docs/*.jsonl.gz'], destination: dest, tokenizer: neox, cwd: dir, maxSize: 2000, batchSize: 16, ringSize: 2, ...extra });

const filesOf = (dir: string): Map<string, Buffer> => new Map(readdirSync(dir).filter((n) => n.startsWith('part-')).map((n) => [n, readFileSync(join(dir, n))]));

describe('runTokens', () => {
  it('round trip: every non-empty document is one CSV row whose token slice decodes to its stripped text + EOS', async () => {
    const dir = scratchDir();
    const docs = corpus(dir);
    const s = await run(dir, 'out');
    const tok = await loadTokenizer({ nameOrPath: NEOX_JSON });
    const rows = readOutputs(join(dir, 'out'));
    const nonEmpty = [...docs.entries()].filter(([, d]) => pyStripLinear(d.text) !== '');
    expect(rows.map((r) => r.id).sort()).toEqual(nonEmpty.map(([id]) => id).sort());
    for (const r of rows) {
      const doc = docs.get(r.id)!;
      expect(r.tokens.at(-1)).toBe(NEOX_EOS);
      // EOS is appended unless the text already ends with it (Dolma's add_special_tokens).
      const stripped = pyStripLinear(doc.text).normalize('NFC');
      expect(tok.decode(r.tokens)).toBe(stripped.endsWith('<|endoftext|>') ? stripped : `${stripped}<|endoftext|>`);
      expect(r.src).toBe(`docs/part-${r.id[1]}.jsonl.gz`);
      expect(r.loc).toBe(Number(r.id.split('-')[1]) + 1);
    }
    expect(s.docs).toBe(nonEmpty.length);
    expect(s.skippedEmpty).toBe(docs.size - nonEmpty.length);
    expect(s.tokens).toBe(rows.reduce((n, r) => n + r.tokens.length, 0));
    const endsWithEot = rows.filter((r) => pyStripLinear(docs.get(r.id)!.text).endsWith('<|endoftext|>')).length;
    expect(endsWithEot).toBeGreaterThan(0);
    expect(s.rawTokens).toBe(s.tokens - s.docs + endsWithEot);
    const books = rows.filter((r) => docs.get(r.id)!.source === 'books');
    const raw = (r: (typeof rows)[number]): number => r.tokens.length - (pyStripLinear(docs.get(r.id)!.text).endsWith('<|endoftext|>') ? 0 : 1);
    expect(s.perSource.books).toEqual({ docs: books.length, tokens: books.reduce((n, r) => n + r.tokens.length, 0), rawTokens: books.reduce((n, r) => n + raw(r), 0) });
    // Files fill up to max_size - 1 tokens (Dolma's strict `<`), then the next one starts.
    expect(s.outputs.length).toBeGreaterThan(1);
    for (const o of s.outputs) expect(o.tokens).toBeLessThan(2000);
    expect(JSON.parse(readFileSync(summaryPath(join(dir, 'out')), 'utf8'))).toMatchObject({ docs: s.docs, tokens: s.tokens, perSource: s.perSource });
  });

  it('same seed → byte-identical outputs; another seed → another order; 2 processes → the same (id, tokens) multiset', async () => {
    const dir = scratchDir();
    corpus(dir);
    await run(dir, 'a');
    await run(dir, 'b');
    await run(dir, 'c', { seed: 1 });
    await run(dir, 'p2', { processes: 2 });
    expect(filesOf(join(dir, 'b'))).toEqual(filesOf(join(dir, 'a')));
    const order = (d: string): string[] => readOutputs(join(dir, d)).map((r) => r.id);
    expect(order('c')).not.toEqual(order('a'));
    const multiset = (d: string): string[] => readOutputs(join(dir, d)).map((r) => `${r.id}:${r.tokens.join(' ')}`).sort();
    expect(multiset('p2')).toEqual(multiset('a'));
    expect(readdirSync(join(dir, 'p2')).some((n) => n.startsWith('part-1-'))).toBe(true);
  }, 30_000);

  it("Dolma's shuffle test: 4 files × 32 docs, ring 4, batch 8 → all 128 once, each followed by EOS, not in sorted order", async () => {
    const dir = scratchDir();
    for (let f = 0; f < 4; f++) writeJsonl(join(dir, `docs/${f}.jsonl`), Array.from({ length: 32 }, (_, j) => ({ id: `${f}-${j}`, text: String(j) })));
    await runTokens({ documents: ['docs/*.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, ringSize: 4, batchSize: 8 });
    const rows = readOutputs(join(dir, 'out'));
    expect(new Set(rows.map((r) => r.id)).size).toBe(128);
    for (const r of rows) expect(r.tokens.at(-1)).toBe(NEOX_EOS);
    const ids = rows.map((r) => r.id);
    expect(ids).not.toEqual([...ids].sort());
  });

  it('applies BOS/EOS as Dolma: only where not already present; segmentation gives the same ids', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'docs/a.jsonl'), [
      { id: 'plain', text: 'Hello there.\n\nNew paragraph.' },
      { id: 'has-eot', text: '<|endoftext|>starts and ends<|endoftext|>' },
    ]);
    const ids = async (dest: string, tokenizer: TokensOptions['tokenizer']): Promise<Record<string, number[]>> => {
      await runTokens({ documents: ['docs/a.jsonl'], destination: dest, tokenizer, cwd: dir });
      return Object.fromEntries(readOutputs(join(dir, dest)).map((r) => [r.id, r.tokens]));
    };
    const tok = await loadTokenizer({ nameOrPath: NEOX_JSON });
    const body = tok.encode('Hello there.\n\nNew paragraph.');
    const both = await ids('both', { nameOrPath: NEOX_JSON, bosTokenId: 0, eosTokenId: NEOX_EOS });
    expect(both.plain).toEqual([0, ...body, NEOX_EOS]);
    expect((await ids('bos', { nameOrPath: NEOX_JSON, bosTokenId: 0 })).plain).toEqual([0, ...body]);
    const eotAsBos = await ids('eot', { nameOrPath: NEOX_JSON, bosTokenId: NEOX_EOS, eosTokenId: NEOX_EOS });
    expect(eotAsBos['has-eot']).toEqual(tok.encode('<|endoftext|>starts and ends<|endoftext|>'));
    expect(eotAsBos['has-eot']!.filter((t) => t === NEOX_EOS)).toHaveLength(2);
    expect(await ids('seg', { nameOrPath: NEOX_JSON, bosTokenId: 0, eosTokenId: NEOX_EOS, segmentBeforeTokenization: true })).toEqual(both);
  });

  it('reads nested text fields, integer ids, and generates sha256(src)-line ids when id_field_name is null', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'docs/a.jsonl'), [{ num: 7, body: { text: 'nested one' } }, { num: 9, body: { text: 'nested two' } }]);
    await runTokens({ documents: ['docs/a.jsonl'], destination: 'o1', tokenizer: neox, cwd: dir, fields: { textFieldName: 'body.text', idFieldName: 'num', idFieldType: 'int' } });
    expect(readOutputs(join(dir, 'o1')).map((r) => r.id).sort()).toEqual(['7', '9']);
    await runTokens({ documents: ['docs/a.jsonl'], destination: 'o2', tokenizer: neox, cwd: dir, fields: { textFieldName: 'body.text', idFieldName: null } });
    const { createHash } = await import('node:crypto');
    const h = createHash('sha256').update('docs/a.jsonl').digest('hex');
    expect(readOutputs(join(dir, 'o2')).map((r) => r.id).sort()).toEqual([`${h}-1`, `${h}-2`]);
    await expect(runTokens({ documents: ['docs/a.jsonl'], destination: 'o3', tokenizer: neox, cwd: dir })).rejects.toThrow(/a\.jsonl:1: document has no 'text' field/);
    expect(existsSync(join(dir, 'o3'))).toBe(false);
    const skipped = await runTokens({ documents: ['docs/a.jsonl'], destination: 'o4', tokenizer: neox, cwd: dir, skipBadLines: true });
    expect(skipped).toMatchObject({ docs: 0, badLines: 2 });
  });
});
