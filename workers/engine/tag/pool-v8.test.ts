// A tag pool whose workers run V8 single-threaded gives the in-process run's outputs, the backtracking regex worker's time budget included.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { runTag, type TaggerRequest } from './runtime.js';

const saved = process.env.ASSAY_V8_BACKGROUND;
afterEach(() => {
  if (saved === undefined) delete process.env.ASSAY_V8_BACKGROUND;
  else process.env.ASSAY_V8_BACKGROUND = saved;
});

/** A lookahead sends regex_filter to the backtracking engine, which runs in a worker thread under a time budget. */
const TAGGERS: TaggerRequest[] = [{ name: 'regex_filter', options: { regex_exp: '(a|aa)+(?=c)' } }, { name: 'gopher_repetition' }, { name: 'gopher_v1' }];

function dataset(texts: string[][]): string {
  const dir = scratchDir('assay-pool-v8-');
  texts.forEach((file, f) => writeJsonl(join(dir, 'documents', `${f}.jsonl.gz`), file.map((text, i) => ({ id: `${f}-${i}`, text, source: 't' })), { gzip: true }));
  return dir;
}

const TEXTS = [
  ['aac is matched', 'plain text with no match.\nA second line, a second line.', 'ünïcödé 😀 aaaac'],
  ['the cat sat on the mat '.repeat(40), 'b', ''],
];

describe('tag pool under --single-threaded', () => {
  it('writes the same attribute files as one in-process run', async () => {
    const single = dataset(TEXTS);
    const pooled = dataset(TEXTS);
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: TAGGERS, experiment: 'x', cwd: single, processes: 1 });
    process.env.ASSAY_V8_BACKGROUND = 'off';
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: TAGGERS, experiment: 'x', cwd: pooled, processes: 2 });
    for (const f of ['0.jsonl.gz', '1.jsonl.gz']) expect(readFileSync(join(pooled, 'attributes/x', f))).toEqual(readFileSync(join(single, 'attributes/x', f)));
  });

  it('still stops a backtracking pattern at its budget, naming the file', async () => {
    const dir = dataset([['aac'], ['a'.repeat(60) + 'b']]);
    process.env.ASSAY_V8_BACKGROUND = 'off';
    const t = performance.now();
    const err = await runTag({ documents: ['documents/*.jsonl.gz'], taggers: TAGGERS.slice(0, 1), experiment: 'x', cwd: dir, processes: 2 }).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('took longer than its budget');
    expect((err as Error).message).toContain('1.jsonl.gz');
    expect(performance.now() - t).toBeLessThan(15_000);
  });
});
