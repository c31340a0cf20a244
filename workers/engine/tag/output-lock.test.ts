// Two tag runs over one documents file: the second waits for the first's lock on the file's outputs instead of taking its temporary file.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { markerPath, runTag } from './runtime.js';
import { attributeLockPath } from '../io/attribute-lock.js';

function corpus(docs = 4000): string {
  const dir = scratchDir();
  writeJsonl(
    join(dir, 'documents/a.jsonl.gz'),
    Array.from({ length: docs }, (_, i) => ({ id: `d${i}`, text: `Document ${i} says hello.\nSecond line of ${i} with more words in it.\n`.repeat(1 + (i % 7)) })),
  );
  return dir;
}

const OUT = 'attributes/exp/a.jsonl.gz';
const base = { documents: ['documents/*.jsonl.gz'], taggers: ['char_length_v1', 'gopher_v1'], experiment: 'exp', processes: 1 };

describe('tag output lock', () => {
  it('two runs over the same file at once both succeed: the second waits, then skips the file the first tagged', async () => {
    const clean = corpus();
    await runTag({ ...base, cwd: clean });
    const want = readFileSync(join(clean, OUT));

    const dir = corpus();
    const logs: string[] = [];
    // Either may reach the file first; the other one waits and says so.
    const runs = await Promise.all([runTag({ ...base, cwd: dir, log: (l) => logs.push(l) }), runTag({ ...base, cwd: dir, log: (l) => logs.push(l) })]);
    expect(readFileSync(join(dir, OUT))).toEqual(want);
    // The second found the first's markers once it had the lock: the file was tagged once.
    expect(runs.map((r) => r.files[0]?.status).sort()).toEqual(['skipped', 'tagged']);
    expect(logs.filter((l) => l.includes('a.jsonl.gz: tagged by the run this one waited for; skipped'))).toHaveLength(1);
    const marker = JSON.parse(readFileSync(markerPath(join(dir, OUT)), 'utf8')) as { output: { size: number } };
    expect(marker.output.size).toBe(want.length);
    expect(logs.filter((l) => l.includes('waiting for') && l.includes(`process ${process.pid} on ${hostname()}`) && l.includes('a.jsonl.gz'))).toHaveLength(1);
    // No lock and no temporary file left: the same names as the clean run's.
    for (const sub of ['attributes/exp', 'attributes/exp/.assay-done']) expect(readdirSync(join(dir, sub)).sort()).toEqual(readdirSync(join(clean, sub)).sort());
    expect(readdirSync(join(dir, 'attributes/exp/.assay-done'))).toEqual(['a.jsonl.gz.json']);
  });

  it('waits while a live process holds the lock, and tags the file once it is released', async () => {
    const dir = corpus(50);
    const lock = attributeLockPath(join(dir, OUT));
    mkdirSync(join(lock, '..'), { recursive: true });
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lock, `${hostname()}\n${holder.pid}\nuuid\nassay tag\n`);
      const logs: string[] = [];
      let finished = false;
      const run = runTag({ ...base, cwd: dir, log: (l) => logs.push(l) }).then(() => (finished = true));
      await new Promise((r) => setTimeout(r, 600));
      expect(finished).toBe(false);
      expect(existsSync(join(dir, OUT))).toBe(false);
      expect(logs.filter((l) => l.includes('waiting for assay tag, process'))).toHaveLength(1);
      holder.kill();
      await new Promise((r) => holder.once('exit', r));
      // The holder is gone: its lock is taken over.
      await run;
      expect(existsSync(join(dir, OUT))).toBe(true);
      expect(existsSync(lock)).toBe(false);
      expect(logs.some((l) => l.includes('taking over') && l.includes('the process is gone'))).toBe(true);
    } finally {
      holder.kill();
    }
  });

  it("a rerun that skips a file by its markers removes the lock a run killed before releasing it left, not a live run's", async () => {
    const dir = corpus(50);
    await runTag({ ...base, cwd: dir });
    const want = readFileSync(join(dir, OUT));
    // What a kill between writing the markers and releasing the lock leaves: the file done, its lock still there.
    const lock = attributeLockPath(join(dir, OUT));
    writeFileSync(lock, `${hostname()}\n${2 ** 22 + 12345}\nkilled-run\nassay tag\n`);
    const logs: string[] = [];
    const r = await runTag({ ...base, cwd: dir, log: (l) => logs.push(l) });
    expect(r.files.map((f) => f.status)).toEqual(['skipped']);
    expect(existsSync(lock)).toBe(false);
    expect(logs).toEqual([`removed the lock of ${join(dir, OUT)}, left by process ${2 ** 22 + 12345} on ${hostname()} (the process is gone)`]);
    expect(readFileSync(join(dir, OUT))).toEqual(want);
    // A live holder's lock (another run writing the file again) is left to it, and the skip does not wait for it.
    writeFileSync(lock, `${hostname()}\n${process.pid}\nlive-run\nassay tag\n`);
    const again = await runTag({ ...base, cwd: dir });
    expect(again.files.map((f) => f.status)).toEqual(['skipped']);
    expect(readFileSync(lock, 'utf8')).toContain('live-run');
  });

  it('a cancelled wait throws CANCELLED and writes nothing', async () => {
    const dir = corpus(50);
    const lock = attributeLockPath(join(dir, OUT));
    mkdirSync(join(lock, '..'), { recursive: true });
    writeFileSync(lock, `${hostname()}\n${process.pid}\nother-run\nassay tag\n`);
    const ac = new AbortController();
    const run = runTag({ ...base, cwd: dir, signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(dir, OUT))).toBe(false);
    expect(readFileSync(lock, 'utf8')).toContain('other-run');
  });
});
