// `assay ledger OUTPUT_DIR` after a real mix with sampling and repeats: figures against the documents, the shards and the token files.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunTokenLedger } from '../../../shared/contract/run-ledger.js';
import { makeDataset } from '../index/test-dataset.js';
import { shardRows } from '../ledger/test-run.js';
import { tempDir } from '../testing.js';
import { runCli } from './run-cli.js';

const RECIPE = `streams:
  - name: s0
    documents: [documents/**/*]
    attributes: [gopher, misc]
    output: {path: out/v1, max_size_in_bytes: 20000, min_text_length: 40}
    filter:
      syntax: jq
      include: ['.attributes.misc__char_length_v1__length[0][2] > 10']
      exclude: ['.attributes.gopher__gopher_v1__word_count[0][2] < 8']
    assay:
      sample: {fraction: {web: 0.5}, seed: 3}
      repeat: {books: 2}
`;

const { dir, cleanup } = tempDir();
let docs: Record<string, unknown>[];
afterAll(cleanup);
beforeAll(async () => {
  docs = await makeDataset(dir);
  writeFileSync(join(dir, 'recipe.yaml'), RECIPE);
  const mix = runCli(['mix', '-c', 'recipe.yaml', '--quiet'], { cwd: dir });
  expect(mix.code, mix.stderr).toBe(0);
}, 120_000);

const sourceOf = (d: Record<string, unknown>): string => (typeof d.source === 'string' ? d.source : '');
const ledgerJson = (args: string[]): RunTokenLedger => {
  const r = runCli(['ledger', 'out/v1', '--json', ...args], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as RunTokenLedger;
};

describe('assay ledger OUTPUT_DIR', () => {
  it('counts raw from the inputs, sampled and seen from the shards, estimates labelled until a tokens run exists', () => {
    const r = ledgerJson([]);
    expect(r.tokens.kind).toBe('estimate');
    expect(r.tokensRun).toBeNull();
    const written = shardRows(join(dir, 'out/v1'));
    for (const s of r.sources) {
      const mine = docs.filter((d) => sourceOf(d) === s.source);
      expect(s.raw.docs, s.source).toBe(mine.length);
      expect(s.raw.bytes, s.source).toBe(mine.reduce((n, d) => n + Buffer.byteLength(String(d.text ?? ''), 'utf8'), 0));
      const lines = written.filter((w) => sourceOf(w.doc) === s.source).length;
      expect(s.seen.docs, s.source).toBe(lines);
      expect(s.sampled.docs * (s.source === 'books' ? 2 : 1), s.source).toBe(lines);
      expect(s.repeat).toBe(s.source === 'books' ? 2 : 1);
      const notSampled = s.lostByRule.find((l) => l.label.startsWith('sample'))?.docs ?? 0;
      expect(s.filtered.docs - s.sampled.docs, s.source).toBe(notSampled);
      if (s.source !== 'web') expect(notSampled, s.source).toBe(0);
      // Every raw document is either in the filtered stage or lost to exactly one rule before sampling.
      expect(s.raw.docs - s.filtered.docs).toBe(s.lostByRule.filter((l) => !l.label.startsWith('sample')).reduce((n, l) => n + l.docs, 0));
    }
    const web = r.sources.find((s) => s.source === 'web')!;
    expect(web.sampled.docs).toBeGreaterThan(web.filtered.docs * 0.3);
    expect(web.sampled.docs).toBeLessThan(web.filtered.docs * 0.7);
    expect(r.sources.reduce((n, s) => n + s.share, 0)).toBeCloseTo(1, 9);
    expect(r.total.seen.docs).toBe(written.length);
  });

  it('takes exact seen tokens from the tokens run that read the output, scales seen by --epochs, and prints the table and CSV', () => {
    const tok = runCli(['tokens', '--documents', 'out/v1/*.gz', '--destination', 'tok/v1', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '--quiet'], { cwd: dir });
    expect(tok.code, tok.stderr).toBe(0);
    const r = ledgerJson([]);
    expect(r.tokensRun).toBe(join(dir, 'tok/v1'));
    expect(r.tokens.kind).toBe('partial');
    expect(r.tokenSources.seen.exact).toBe(true);
    expect(r.tokenSources.raw.exact).toBe(false);
    // uint16 token files: every token written is 2 bytes of some part-*.npy.
    const npy = readdirSync(join(dir, 'tok/v1')).filter((f) => f.endsWith('.npy'));
    expect(r.total.seen.tokens).toBe(npy.reduce((n, f) => n + statSync(join(dir, 'tok/v1', f)).size / 2, 0));
    const books = r.sources.find((s) => s.source === 'books')!;
    expect(books.sampled.tokens * 2).toBe(books.seen.tokens);

    const twice = ledgerJson(['--epochs', '2', '--tokens', 'tok/v1']);
    for (const [a, b] of twice.sources.map((s, i) => [s, r.sources[i]!] as const)) {
      expect(a.seen.tokens).toBe(2 * b.seen.tokens);
      expect(a.sampled).toEqual(b.sampled);
    }
    const table = runCli(['ledger', 'out/v1'], { cwd: dir });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^tokens: partly exact \(gpt2\)/);
    expect(table.stdout).toMatch(/^books\s+raw\s+[\d,]+\s+[\d,]+\s+≈[\d,]+/m);
    expect(table.stdout).toMatch(new RegExp(`^\\s+seen\\s+${books.seen.docs.toLocaleString('en-US')}\\s+[\\d,]+\\s+${books.seen.tokens.toLocaleString('en-US')}\\s+[\\d.]+%\\s+× repeat 2 × epochs 1$`, 'm'));
    expect(table.stdout).toMatch(/seen\s+exact: tokens run .*tok\/v1 \(gpt2\)/);
    const csv = runCli(['ledger', 'out/v1', '--csv'], { cwd: dir }).stdout.trim().split('\n');
    expect(csv[0]).toBe('source,stage,docs,bytes,tokens,tokens_exact,sample_rate,repeat,epochs,share');
    expect(csv.length).toBe(1 + 4 * r.sources.length);
    expect(csv).toContain(`books,seen,${books.seen.docs},${books.seen.bytes},${books.seen.tokens},true,${books.sampleRate},2,1,${books.share}`);
  }, 120_000);

  it('names what is wrong: not a run folder, a tokens run of something else, both output forms', () => {
    expect(runCli(['ledger', 'documents'], { cwd: dir }).stderr).toMatch(/documents is not a run's output folder \(no \.assay\/manifest\.json\)/);
    const other = runCli(['ledger', 'out/v1', '--tokens', 'out/v1'], { cwd: dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--tokens: this is a mix run, not a tokens run/);
    expect(runCli(['ledger', 'out/v1', '--json', '--csv'], { cwd: dir }).stderr).toMatch(/--json or --csv, not both/);
    expect(runCli(['ledger', 'out/v1', '--epochs', '0'], { cwd: dir }).stderr).toMatch(/--epochs must be a positive number, got '0'/);
  });
});
