// runDecon on the tag runtime: cancel leaves nothing that looks finished; --build-only builds the index and tags nothing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { runDecon, type DeconOptions } from './run.js';

const ITEM = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen';

function setup(): DeconOptions {
  const dir = scratchDir();
  writeJsonl(join(dir, 'documents/a.jsonl'), Array.from({ length: 2000 }, (_, k) => ({ id: `d${k}`, text: k % 100 ? `plain text number ${k}` : `x ${ITEM} y` })));
  writeJsonl(join(dir, 'evals/e.jsonl'), [{ q: ITEM }]);
  return { documents: ['documents/*'], name: 'c', sets: [{ name: 'e', path: join(dir, 'evals/e.jsonl'), fields: ['q'] }], indexPath: 'e.idx', cwd: dir };
}

describe('runDecon', () => {
  it('a cancelled run writes no attribute file and no marker', async () => {
    const opts = setup();
    const ctl = new AbortController();
    ctl.abort();
    await expect(runDecon({ ...opts, signal: ctl.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(opts.cwd as string, 'attributes/c/a.jsonl'))).toBe(false);
    expect(existsSync(join(opts.cwd as string, 'attributes/c/.assay-done'))).toBe(false);
  });

  it('--build-only saves the index and tags nothing; the run after it reuses the index and tags', async () => {
    const opts = setup();
    const built = await runDecon({ ...opts, buildOnly: true });
    expect(built.tag).toBeNull();
    expect(built.index.built).toBe(true);
    expect(existsSync(join(opts.cwd as string, 'e.idx'))).toBe(true);
    expect(existsSync(join(opts.cwd as string, 'attributes'))).toBe(false);
    const run = await runDecon(opts);
    expect(run.index.built).toBe(false);
    expect(run.tag?.docs).toBe(2000);
  });
});
