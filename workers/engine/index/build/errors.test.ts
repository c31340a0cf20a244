// `assay index` failures name their file (an unreadable input, a full disk at the index) and never leave an empty index behind.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../cli/run-cli.js';
import { REPO_ROOT, rng, scratchDir, writeJsonl } from '../../testing.js';
import { PreviewEngine } from '../engine.js';
import { buildIndex } from './build.js';
import { indexPath, openDatabase } from '../store/db.js';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function docs(dir: string, name: string, n: number, seed: number): void {
  const r = rng(seed);
  writeJsonl(join(dir, 'documents', name), Array.from({ length: n }, (_, i) => ({ id: `${name}-${i}`, text: `document ${i} ${Math.floor(r() * 1e9).toString(36).repeat(4)}` })));
}

/** The CLI as a real process; `asNobody` (when root) so file permissions apply: root reads any file. */
function index(dir: string, asNobody = false): { code: number; stderr: string } {
  ensureBuilt();
  const opts: SpawnSyncOptions = { encoding: 'utf8', timeout: 60_000, cwd: dir, ...(isRoot && asNobody ? { uid: NOBODY, gid: NOBODY } : {}) };
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/assay.js'), 'index', dir], opts);
  return { code: r.status ?? -1, stderr: String(r.stderr) };
}

function giveToNobody(dir: string): void {
  if (!isRoot) return;
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: false }) as string[]) chownSync(join(dir, e), NOBODY, NOBODY);
  chownSync(dir, NOBODY, NOBODY);
}

const indexFiles = (dir: string): string[] => (existsSync(join(dir, '.assay')) ? readdirSync(join(dir, '.assay')).filter((f) => f.startsWith('index.sqlite')) : []);

describe('index build errors', () => {
  it('an unreadable documents file: a clear error naming it, and no index left from a failed first build (real EACCES: the CLI runs as nobody)', () => {
    const dir = scratchDir('assay-index-eacces-');
    docs(dir, 'a.jsonl.gz', 50, 1);
    docs(dir, 'b.jsonl.gz', 50, 2);
    giveToNobody(dir);
    chmodSync(join(dir, 'documents/b.jsonl.gz'), 0o000);
    const r = index(dir, true);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'documents/b.jsonl.gz')}: cannot read: EACCES`);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(indexFiles(dir)).toEqual([]);
    // With the file readable the build succeeds; making it unreadable again keeps that index.
    chmodSync(join(dir, 'documents/b.jsonl.gz'), 0o644);
    expect(index(dir, true).code).toBe(0);
    docs(dir, 'c.jsonl.gz', 10, 3);
    giveToNobody(dir);
    chmodSync(join(dir, 'documents/c.jsonl.gz'), 0o000);
    const again = index(dir, true);
    expect(again.stderr).toContain('documents/c.jsonl.gz: cannot read: EACCES');
    const engine = PreviewEngine.open(dir);
    expect(engine.status().docs).toBe(100);
    engine.close();
  });

  it('a first build is written beside the index and moved into place when committed: a kill leaves no index.sqlite, and the next build removes what it left', async () => {
    const dir = scratchDir('assay-index-first-');
    docs(dir, 'a.jsonl.gz', 30, 4);
    // What a killed first build leaves: its .tmp files, under a pid that is gone.
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    mkdirSync(join(dir, '.assay'));
    for (const suffix of ['', '-wal', '-shm']) writeFileSync(join(dir, `.assay/index.sqlite.${dead}.tmp${suffix}`), 'partial');
    let during: string[] = [];
    await buildIndex(dir, { onProgress: () => (during = indexFiles(dir)) });
    // Its rollback journal is in memory (nothing to clean up after a kill); it becomes a WAL database once committed.
    expect(during).toEqual([`index.sqlite.${process.pid}.tmp`]);
    expect(indexFiles(dir)).toEqual(['index.sqlite']);
    const db = openDatabase(indexPath(dir), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    const engine = PreviewEngine.open(dir);
    expect(engine.status().docs).toBe(30);
    engine.close();
  });

  const canMount = isRoot && spawnSync('mount', ['--version']).status === 0;
  it.skipIf(!canMount)('disk full while writing the index: "disk full" naming the index, no index after a first build, the earlier index kept after a rebuild (a 640 KiB tmpfs)', () => {
    const dir = scratchDir('assay-index-full-');
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=640k', 'tmpfs', dir]);
    if (mounted.status !== 0) throw new Error(`mount failed: ${String(mounted.stderr)}`);
    try {
      // Random text compresses badly in the documents but the index holds per-document rows, ids and columns.
      for (let f = 0; f < 4; f++) docs(dir, `${f}.jsonl.gz`, 3000, 10 + f);
      const r = index(dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${join(dir, '.assay/index.sqlite')}: disk full: cannot write the index`);
      expect(r.stderr).not.toMatch(/internal error|SqliteError|\n\s+at /);
      expect(indexFiles(dir)).toEqual([]);
      // A small dataset fits; adding to it past the disk's size fails and keeps the earlier index.
      for (let f = 1; f < 4; f++) rmSync(join(dir, `documents/${f}.jsonl.gz`));
      rmSync(join(dir, 'documents/0.jsonl.gz'));
      docs(dir, 'small.jsonl.gz', 200, 5);
      expect(index(dir).code).toBe(0);
      const before = statSync(join(dir, '.assay/index.sqlite')).size;
      for (let f = 0; f < 4; f++) docs(dir, `${f}.jsonl.gz`, 3000, 10 + f);
      const grown = index(dir);
      expect(grown.code).toBe(1);
      expect(grown.stderr).toContain('disk full');
      expect(existsSync(join(dir, '.assay/index.sqlite'))).toBe(true);
      const engine = PreviewEngine.open(dir);
      expect(engine.status().docs).toBe(200);
      engine.close();
      expect(statSync(join(dir, '.assay/index.sqlite')).size).toBeGreaterThanOrEqual(before);
    } finally {
      spawnSync('umount', ['-l', dir]);
      mkdirSync(dir, { recursive: true });
    }
  });
});
