// Test helpers shared by engine tests: temp dirs, fixture writers, the conformance folder.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import { onTestFinished } from 'vitest';
import { mulberry32 } from '../../shared/prng.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** `../shared/conformance` beside the repo (CI lays it out the same way). */
export const CONFORMANCE = resolve(REPO_ROOT, '../shared/conformance');

export function tempDir(prefix = 'assay-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A temp dir that is removed when the current test finishes (call it inside a test). */
export function scratchDir(prefix?: string): string {
  const { dir, cleanup } = tempDir(prefix);
  onTestFinished(cleanup);
  return dir;
}

/** Small deterministic PRNG (mulberry32) for generated inputs, so runs see the same bytes. */
export const rng = mulberry32;

export function writeJsonl(path: string, rows: readonly unknown[], opts: { gzip?: boolean } = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const text = rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + (rows.length ? '\n' : '');
  const gzip = opts.gzip ?? path.endsWith('.gz');
  writeFileSync(path, gzip ? gzipSync(Buffer.from(text)) : text);
}

export function readJsonlFile(path: string): Record<string, unknown>[] {
  let buf = readFileSync(path);
  if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
  return buf
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * Bytes still on the JS heap after `run`, with a full collection before and after: how much of what `run` made a
 * long-lived structure keeps (caches holding views into documents show up as the documents' size).
 */
export async function heapKept(run: () => void | Promise<void>): Promise<number> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  await run();
  gc();
  return process.memoryUsage().heapUsed - before;
}
