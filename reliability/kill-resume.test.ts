// SIGKILL each verb's CLI run at several points, rerun it: the outputs equal a clean run's and nothing partial is left (issue 12 acceptance).
import { timeFree } from '../workers/engine/manifest/read.js';
import type { RunManifest } from '../workers/engine/manifest/schema.js';
import { createRequire } from 'node:module';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../workers/engine/cli/run-cli.js';
import { isPartial, listAll, makeDataset, outputs, privateCli, resetTo, runCli, type Run, type RunOptions } from './kill-harness.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

/** Where in the writing window the kills land (0: first new file appears, 1: the clean run ends). */
const KILL_POINTS = [0.1, 0.5, 0.9];

const TOKENS = ['--destination', 'tokens', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '--dtype', 'uint16', '--processes', '1', '--max_size', '300000'];
const VERBS: { verb: string; args: string[]; inputs: string[] }[] = [
  { verb: 'tag', args: ['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1', 'gopher_v1', '--experiment', 'g', '--processes', '1'], inputs: ['documents', 'attributes/k'] },
  { verb: 'dedupe', args: ['dedupe', '-c', 'dedupe.yaml'], inputs: ['documents', 'attributes/k'] },
  { verb: 'minhash', args: ['minhash', '-c', 'minhash.yaml'], inputs: ['documents', 'attributes/k'] },
  { verb: 'mix', args: ['mix', '-c', 'recipe.yaml'], inputs: ['documents', 'attributes/k'] },
  { verb: 'tokens', args: ['tokens', '--documents', 'documents/*.jsonl.gz', ...TOKENS], inputs: ['documents', 'attributes/k'] },
  { verb: 'index', args: ['index', '.'], inputs: ['documents', 'attributes/k'] },
];
const TOP = ['documents', 'attributes', 'dedupe.yaml', 'minhash.yaml', 'recipe.yaml'];

let base: string;
let cli: ReturnType<typeof privateCli>;
beforeAll(async () => {
  ensureBuilt();
  cli = privateCli();
  base = mkdtempSync(join(tmpdir(), 'assay-kill-base-'));
  makeDataset(base, 4, 600);
  // The attributes mix and index read: tagged once, an input like the documents.
  const r = await runCli(cli.cli, ['tag', '--documents', 'documents/*.jsonl.gz', '--taggers', 'char_length_v1', '--experiment', 'k', '--processes', '1'], base);
  if (r.code !== 0) throw new Error(`setup tag failed: ${r.stderr}`);
}, 120_000);
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  cli.remove();
});

/** Files that hold timings or SQLite pages: compared by what they mean, not byte for byte. */
function normalize(rel: string, data: Buffer): string | Buffer {
  if (/(^|\/)\.assay\/(index\/)?manifest\.json$/.test(rel)) return manifestContent(data);
  if (rel.endsWith('.json')) return JSON.stringify(JSON.parse(data.toString('utf8')), (k, v: unknown) => (/elapsed|Sec$|^ms$|_at$/.test(k) ? undefined : v));
  if (/\.sqlite-(wal|shm)$/.test(rel)) return '(present)';
  return data;
}

/**
 * A run manifest as what the run made: without its times (timeFree, as `assay diff` compares) and without the
 * bytes of SQLite outputs (the index), whose pages depend on how a resumed build committed; their rows are
 * compared by dumpSqlite.
 */
function manifestContent(data: Buffer): string {
  const m = timeFree(JSON.parse(data.toString('utf8')) as RunManifest) as { outputs: { path: string; sha256?: string; size?: number }[] };
  const outputs = m.outputs.map((o) => (o.path.endsWith('.sqlite') ? { ...o, sha256: '(sqlite)', size: 0 } : o));
  return JSON.stringify({ ...m, outputs });
}

/** A SQLite file as its rows (table by table, in key order), without build times and counters. */
function dumpSqlite(path: string, rowids = false): string {
  // Read from a copy: opening the file in place would itself leave -wal/-shm files beside it.
  const copy = mkdtempSync(join(tmpdir(), 'assay-kill-db-'));
  for (const suffix of ['', '-wal']) if (existsSync(path + suffix)) copyFileSync(path + suffix, join(copy, `db${suffix}`));
  const db = new Database(join(copy, 'db'), { readonly: true, fileMustExist: true });
  try {
    // Full-text tables by the rows they hold: their shadow tables' b-trees depend on the insert history (a resumed build merges differently).
    const fts = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").pluck().all() as string[];
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]).filter(
      (t) => !fts.some((v) => t.startsWith(`${v}_`)),
    );
    const rows = tables.map((t) => {
      const all = db.prepare(fts.includes(t) ? (rowids ? `SELECT rowid FROM "${t}"` : `SELECT count(*) FROM "${t}"`) : `SELECT * FROM "${t}"`).raw().all() as unknown[][];
      const text = all.map((r) => JSON.stringify(r, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? String(v) : v))).filter((r) => !/^\["(built_at|generation|root)"/.test(r));
      return [t, text.sort()];
    });
    return JSON.stringify(rows);
  } finally {
    db.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * The search shards as one list of what they hold per documents file: which shard took a file (and so
 * its rowids) depends on how an interrupted build was resumed, not on the result.
 */
function searchContent(dir: string, shards: readonly string[]): string {
  const rows: string[] = [];
  for (const shard of shards) {
    const dump = JSON.parse(dumpSqlite(join(dir, shard), true)) as [string, string[]][];
    const files = (dump.find(([t]) => t === 'sfiles')?.[1] ?? []).map((r) => JSON.parse(r) as [number, ...unknown[]]);
    const rowids = (dump.find(([t]) => t === 'fts')?.[1] ?? []).map((r) => (JSON.parse(r) as [number])[0]);
    for (const [sid, ...rest] of files) rows.push(JSON.stringify([...rest, rowids.filter((id) => Math.floor(id / 2 ** 32) === sid).length]));
  }
  return JSON.stringify(rows.sort());
}

function snapshot(dir: string, inputs: readonly string[]): Map<string, string> {
  const out = outputs(dir, inputs, normalize);
  const shards = [...out.keys()].filter((k) => /^\.assay\/search\/.*\.sqlite$/.test(k));
  for (const key of [...out.keys()]) {
    if (shards.includes(key) || (key.startsWith('.assay/search/') && /\.sqlite-(wal|shm)$/.test(key))) out.delete(key);
    // A partial SQLite file (a ledger part) is only there or not: a kill can leave its pages torn.
    else if (key.endsWith('.sqlite') && out.get(key) !== '(partial)') out.set(key, dumpSqlite(join(dir, key)));
  }
  if (shards.length > 0) out.set('.assay/search/ (all shards)', searchContent(dir, shards));
  return out;
}

describe('kill and resume, per verb (the built CLI, SIGKILL of its process group)', () => {
  for (const { verb, args, inputs } of VERBS) {
    it(`${verb}: after a kill at ${KILL_POINTS.length} points, the rerun equals a clean run and leaves nothing partial`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `assay-kill-${verb}-`));
      try {
        for (const name of TOP) cpSync(join(base, name), join(dir, name), { recursive: true, preserveTimestamps: true });
        const clean = await runCli(cli.cli, args, dir);
        expect(clean.code, clean.stderr).toBe(0);
        const want = snapshot(dir, inputs);
        expect(want.size).toBeGreaterThan(0);
        const start = clean.firstOutputMs ?? 0;
        /** How long runs work after their first output: the clean run's, then the shortest seen (a loaded machine slows some runs down). */
        let span = clean.ms - start;
        /** Kills one run (`kill` decides when), then checks what the kill left and that the rerun equals the clean run. */
        const killAndResume = async (at: string, kill: (attempt: number) => RunOptions): Promise<Run> => {
          // A run faster than the clean one may end before its kill: try again, with the kill timed on that run's own
          // length and earlier still (the clean run may have been slowed down by other work on the machine).
          let killed: Run | undefined;
          for (let attempt = 0; attempt < 4 && killed?.signal !== 'SIGKILL'; attempt++) {
            resetTo(dir, TOP);
            resetTo(join(dir, 'attributes'), ['k']);
            killed = await runCli(cli.cli, args, dir, kill(attempt));
            if (killed.signal !== 'SIGKILL' && killed.firstOutputMs !== undefined) span = Math.min(span, killed.ms - killed.firstOutputMs);
          }
          if (killed === undefined) throw new Error('unreachable');
          // Whatever a kill leaves under a final name is complete: exactly what the clean run wrote there.
          const atKill = snapshot(dir, inputs);
          for (const [k, v] of atKill) {
            // SQLite files are transactional stores, the search shards resumable by design (a file at a time), and a killed
            // build's index lock, a mix / tokens run's output lock or a tag run's file lock is taken over by the next run: all
            // checked after the rerun.
            if (isPartial(k) || k.endsWith('/') || k.includes('.sqlite') || k.startsWith('.assay/search/') || k.endsWith('.lock')) continue;
            expect(want.has(k), `${verb}: ${k} exists after a kill ${at} but not after a clean run`).toBe(true);
            expect(v === want.get(k), `${verb}: ${k} after a kill ${at} differs from the clean run's (half-written?)`).toBe(true);
          }
          const rerun = await runCli(cli.cli, args, dir);
          expect(rerun.code, `${verb} rerun after a kill ${at}: ${rerun.stderr}`).toBe(0);
          const got = snapshot(dir, inputs);
          // Nothing the clean run does not leave: no .tmp, spill or resume folders, journals.
          expect([...got.keys()].filter((k) => !want.has(k)), `${verb}: left after the rerun (kill ${at})`).toEqual([]);
          expect([...want.keys()].filter((k) => !got.has(k)), `${verb}: missing after the rerun (kill ${at})`).toEqual([]);
          for (const [k, v] of want) expect(got.get(k) === v, `${verb}: ${k} differs from the clean run's (kill ${at})`).toBe(true);
          return killed;
        };
        const kills: Run[] = [];
        for (const f of KILL_POINTS) kills.push(await killAndResume(`at ${f}`, (attempt) => ({ killAfterFirstOutputMs: (f * span) / 2 ** attempt })));
        // On a loaded machine the timed kills can all fall between files: then one more, the moment a partial file appears.
        if (!kills.some((k) => (k.partialAtKill ?? []).length > 0)) kills.push(await killAndResume('at the first partial file', () => ({ killAtFirstPartial: true })));
        // The kills landed while the run was working: at least one of them caught it with partial files written.
        const mid = kills.filter((k) => k.signal === 'SIGKILL');
        expect(mid.length, `${verb}: runs killed (clean run ${clean.ms.toFixed(0)} ms, first output at ${start.toFixed(0)} ms)`).toBeGreaterThanOrEqual(2);
        expect(mid.some((k) => (k.partialAtKill ?? []).length > 0), `${verb}: partial files at the kills: ${JSON.stringify(mid.map((k) => k.partialAtKill))}`).toBe(true);
        expect(listAll(dir).filter((p) => isPartial(p) && !want.has(p))).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 180_000);
  }
});
