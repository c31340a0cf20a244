// A tokens run stopped half-way through publishing (killed, or a rename failing) still owns the parts it renamed: the rerun replaces them.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { previousOutputs, publishParts } from './publish.js';
import { runTokens } from './runtime.js';

describe('publishing token parts', () => {
  it('parts renamed before a failure are recorded as the run’s own, so the rerun does not call them foreign', async () => {
    const dir = scratchDir('assay-tokens-publish-');
    const dest = join(dir, 'tokens');
    mkdirSync(dest);
    const names = ['part-0-00000', 'part-0-00001'];
    for (const n of names) for (const ext of ['.npy', '.csv.gz']) writeFileSync(join(dest, `${n}${ext}.tmp`), 'x');
    // The second part's name is taken by a non-empty folder: its rename fails after the first part's succeeded.
    mkdirSync(join(dest, 'part-0-00001.npy/blocker'), { recursive: true });
    const parts = names.map((n) => ({ npy: join(dest, `${n}.npy`), csv: join(dest, `${n}.csv.gz`), docs: 1, tokens: 1, oversized: false }));
    await expect(publishParts(dest, parts, new Set())).rejects.toMatchObject({ code: 'IO' });
    expect(readdirSync(dest)).toContain('part-0-00000.npy');
    // What a kill at this moment leaves: a renamed part and no summary that lists it.
    expect([...(await previousOutputs(dest))].sort()).toEqual(['part-0-00000.csv.gz', 'part-0-00000.npy', 'part-0-00001.npy']);
  });

  it('a rerun after such a stop succeeds and leaves only its own parts and summary', async () => {
    const dir = scratchDir('assay-tokens-rerun-');
    writeJsonl(join(dir, 'documents/a.jsonl.gz'), Array.from({ length: 50 }, (_, i) => ({ id: `d${i}`, text: `document number ${i} with a few words` })));
    const opts = { documents: ['documents/*.jsonl.gz'], destination: 'tokens', tokenizer: { nameOrPath: 'gpt2', eosTokenId: 50256 }, dtype: 'uint16' as const, cwd: dir };
    await runTokens(opts);
    const published = readdirSync(join(dir, 'tokens')).filter((n) => n.startsWith('part-')).sort();
    // Killed after its renames, before its summary: the summary is gone, the publishing record is there.
    const dest = join(dir, 'tokens');
    writeFileSync(join(dest, '.assay/tokens-publishing.json'), JSON.stringify({ names: published }));
    writeFileSync(join(dest, '.assay/tokens-summary.json'), '{}');
    await runTokens(opts);
    expect(readdirSync(dest).sort()).toEqual(['.assay', ...published]);
    expect(readdirSync(join(dest, '.assay')).sort()).toEqual(['ledger.sqlite', 'manifest.json', 'tokens-summary.json']);
  });
});
