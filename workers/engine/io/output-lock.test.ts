// Two mixes (or tokens runs) into one output folder: the second is refused while the first runs (another process, or this one), a dead run's lock is taken over, and a refused run leaves nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { scratchDir, writeJsonl } from '../testing.js';
import { parseMixerConfig } from '../mix/config.js';
import { NEOX_EOS, NEOX_JSON } from '../tokenize/test-helpers.js';
import { runTokens } from '../tokenize/runtime.js';
import { runMix } from '../mix/mixer.js';
import { outputLockPath } from './output-lock.js';

function dataset(docs = 400): string {
  const dir = scratchDir();
  for (let f = 0; f < 4; f++) {
    writeJsonl(join(dir, 'ds/documents', `${f}.jsonl.gz`), Array.from({ length: docs / 4 }, (_, i) => ({ id: `d${f}-${i}`, text: `document ${f} ${i} ${'words '.repeat(i % 9)}` })));
  }
  return dir;
}

const recipe = (...outs: string[]): string =>
  `streams:\n${outs.map((o, k) => `  - name: s${k}\n    documents: [ds/documents/*]\n    output: {path: ${o}, max_size_in_bytes: 2000}\n    filter: {exclude: ["$[?(@.text == 'none')]"]}\n`).join('')}processes: 1\n`;

const mix = (dir: string, ...outs: string[]) => runMix(parseMixerConfig(recipe(...outs), 'r.yaml'), { cwd: dir });

/** A lock as a live run of another process on this host leaves it (pid 1 always runs). */
function heldByLiveProcess(folder: string): string {
  mkdirSync(join(folder, '.assay'), { recursive: true });
  const text = `${hostname()}\n1\nsome-token\nassay mix\n`;
  writeFileSync(outputLockPath(folder), text);
  return text;
}

const shards = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder).filter((f) => !f.startsWith('.')) : []);

describe('mix output lock', () => {
  it('refuses a mix into a folder another run is writing, naming the folder and the run; the lock and the folder are left alone', async () => {
    const dir = dataset();
    const text = heldByLiveProcess(join(dir, 'out'));
    const err = await mix(dir, 'out').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AssayError);
    expect(err).toMatchObject({ code: 'IO', file: join(dir, 'out') });
    expect((err as Error).message).toBe(`${join(dir, 'out')}: another run is writing here (assay mix, process 1 on ${hostname()}); wait for it to finish, or write this run elsewhere`);
    expect(readFileSync(outputLockPath(join(dir, 'out')), 'utf8')).toBe(text);
    expect(shards(join(dir, 'out'))).toEqual([]);
  });

  it('takes over the lock of a run whose process is gone, and removes it when done', async () => {
    const dir = dataset();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    mkdirSync(join(dir, 'out', '.assay'), { recursive: true });
    writeFileSync(outputLockPath(join(dir, 'out')), `${hostname()}\n${gone}\nold-token\nassay mix\n`);
    const log: string[] = [];
    const s = await runMix(parseMixerConfig(recipe('out'), 'r.yaml'), { cwd: dir, log: (l) => log.push(l) });
    expect(log).toContain(`taking over the output lock of ${join(dir, 'out')} of process ${gone} on ${hostname()} (the process is gone)`);
    expect(s.streams[0]!.docs.kept).toBe(400);
    expect(shards(join(dir, 'out')).length).toBeGreaterThan(1);
    expect(existsSync(outputLockPath(join(dir, 'out')))).toBe(false);
  });

  it('two mixes into one folder at once: one writes it whole, the other is refused', async () => {
    const dir = dataset(2000);
    const results = await Promise.allSettled([mix(dir, 'out'), mix(dir, 'out')]);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as AssayError] : []));
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toContain(`another run is writing here (assay mix, process ${process.pid} on `);
    // Without the lock both runs failed (each found the other's temporary shard, or lost it before publishing it) and left ledger parts behind.
    expect(readdirSync(join(dir, 'out', '.assay')).sort()).toEqual(['ledger.sqlite', 'manifest.json', 'mix-summary-s0.json']);
    await mix(dir, 'again');
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(readdirSync(join(dir, 'again')).sort());
    for (const f of shards(join(dir, 'again'))) expect(readFileSync(join(dir, 'out', f))).toEqual(readFileSync(join(dir, 'again', f)));
    expect(existsSync(join(dir, 'out', '.assay', 'ledger.sqlite'))).toBe(true);
  });

  it('a run refused for one of its folders takes none and leaves no folder it created', async () => {
    const dir = dataset();
    heldByLiveProcess(join(dir, 'out-b'));
    await expect(mix(dir, 'out-a', 'out-b')).rejects.toMatchObject({ code: 'IO', file: join(dir, 'out-b') });
    expect(existsSync(join(dir, 'out-a'))).toBe(false);
    expect(existsSync(join(dir, 'out-b', '.assay', 'write.lock'))).toBe(true);
  });
});

describe('tokens output lock', () => {
  it('refuses a tokens run into a destination another run is writing; runs one after another are fine', async () => {
    const dir = dataset();
    const neox = { nameOrPath: NEOX_JSON, eosTokenId: NEOX_EOS, padTokenId: 1 };
    const tokens = () => runTokens({ documents: ['ds/documents/*.jsonl.gz'], destination: 'tokens', tokenizer: neox, cwd: dir });
    const results = await Promise.allSettled([tokens(), tokens()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as AssayError] : []));
    expect(refused[0]).toMatchObject({ code: 'IO', file: join(dir, 'tokens') });
    expect(refused[0]!.message).toContain(`another run is writing here (assay tokens, process ${process.pid} on `);
    expect((await tokens()).docs).toBe(400);
    expect(existsSync(outputLockPath(join(dir, 'tokens')))).toBe(false);
  });
});
