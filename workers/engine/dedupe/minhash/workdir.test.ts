// Spill folders a killed MinHash run left are removed by the next run, and only those provably stale.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minhashConfig } from '../../../../shared/dedupe/minhash-schema.js';
import { scratchDir, writeJsonl } from '../../testing.js';
import { runMinhash } from './index.js';
import { createWorkDir, removeStaleWorkDirs } from './workdir.js';

/** A pid that surely belongs to no process: one that just exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('MinHash spill folders', () => {
  it('the next run removes the folders of dead runs on this machine, and leaves live, foreign and unnamed ones', async () => {
    const dir = scratchDir('assay-minhash-work-');
    writeJsonl(join(dir, 'documents/a.jsonl'), Array.from({ length: 20 }, (_, i) => ({ id: `d${i}`, text: `some words that make a document number ${i} long enough` })));
    const root = join(dir, 'attributes/mh');
    mkdirSync(root, { recursive: true });
    // Folders as this machine's runs name them: take the host part from one of our own.
    const ours = createWorkDir(root);
    const host = /^\.minhash-work-([0-9a-f]{8})-/.exec(ours.split('/').pop() as string)?.[1] as string;
    const dead = join(root, `.minhash-work-${host}-${deadPid()}-abc123`);
    const live = join(root, `.minhash-work-${host}-${process.ppid}-def456`);
    const foreign = join(root, `.minhash-work-00000000-${deadPid()}-ghi789`);
    const unnamed = join(root, '.minhash-work-Xy12Zq');
    for (const d of [dead, live, foreign, unnamed]) {
      mkdirSync(d);
      writeFileSync(join(d, 'bucket_000.bin'), Buffer.alloc(1200));
    }
    const logs: string[] = [];
    await runMinhash(minhashConfig.parse({ documents: ['documents/*.jsonl'], name: 'mh' }), { cwd: dir, log: (l) => logs.push(l) });
    const left = readdirSync(root).filter((n) => n.startsWith('.minhash-work-')).sort();
    // Our own folder (this test process is alive) stays too; the run removed its own.
    expect(left).toEqual([live, foreign, unnamed, ours].map((p) => p.split('/').pop()).sort());
    expect(logs.some((l) => /removed 1 spill folder\(s\) left by killed runs/.test(l))).toBe(true);
    // `ours` has this very process's pid: the run counts it as its own, so three others are mentioned.
    expect(logs.some((l) => /3 spill folder\(s\) of other runs left/.test(l))).toBe(true);
    expect(removeStaleWorkDirs(root).removed).toEqual([]);
  });
});
