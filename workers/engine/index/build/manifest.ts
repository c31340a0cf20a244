// The index's run manifest (`<root>/.assay/index/manifest.json`): every documents and attribute file indexed, the index files.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadManifest } from '../../manifest/read.js';
import { indexManifestPath } from '../../manifest/schema.js';
import type { SourceCount } from '../../manifest/schema.js';
import { sha256File, writeRunManifest, type InputRecord, type OutputRecord } from '../../manifest/write.js';
import { countsBySource, sourcesByFile, sumBySource } from '../tokens/store.js';
import { indexPath, openDatabase } from '../store/db.js';
import { searchPath } from '../search/store.js';
import { discover, type PathCheck } from './discover.js';

export interface IndexManifestRun {
  started: Date;
  config: unknown;
  /** sha256 of each file this build read, by path relative to the root (BuildOptions.digests). */
  digests: ReadonlyMap<string, string>;
  /** Whether this run built the search table: shards left by an earlier build are not this run's outputs. */
  search: boolean;
  checkPath?: PathCheck;
}

/**
 * An incremental build reads only new or changed files. The others keep the sha256 the previous manifest recorded
 * for the same path, size and mtime; a file without one (an index built before manifests, a touched file) is
 * hashed here once. The index and search databases are not written through AtomicWriter (SQLite pages), so
 * they are hashed after the build: the one second pass, over Assay's own derived files.
 */
export async function writeIndexManifest(rootArg: string, run: IndexManifestRun): Promise<string> {
  const root = resolve(rootArg);
  const found = await discover(root, run.checkPath);
  const own = indexManifestPath(root);
  const previous = new Map<string, { size: number; mtimeMs: number; sha256: string }>();
  const prev = await loadManifest(own).catch(() => null);
  for (const i of prev?.manifest.inputs ?? []) previous.set(i.path, i);
  const inputs: InputRecord[] = [];
  const add = async (rel: string, role: string, size: number, mtimeMs: number): Promise<void> => {
    const path = join(root, rel);
    const p = previous.get(path);
    const kept = p !== undefined && p.size === size && p.mtimeMs === mtimeMs ? p.sha256 : undefined;
    inputs.push({ path, role, size, mtimeMs, sha256: run.digests.get(rel) ?? kept ?? (await sha256File(path)) });
  };
  for (const d of found.documents) await add(d.path, 'documents', d.size, d.mtimeMs);
  for (const set of found.sets) for (const a of found.attributes.get(set)?.values() ?? []) await add(a.path, `attributes/${set}`, a.size, a.mtimeMs);

  const db = openDatabase(indexPath(root), { readonly: true });
  const bySource: Record<string, SourceCount> = {};
  try {
    const files = sourcesByFile(db);
    // In UTF-8 byte order, as SQLite's ORDER BY listed them.
    const rows = [...sumBySource(files, (_, f) => f.tokens)].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))).map(([source, c]) => ({ source, ...c }));
    // A source's tokens are exact when every one of its documents has a tokenizer count, else all estimates (never a mix).
    const exact = countsBySource(db, files);
    for (const r of rows) {
      const c = exact.get(r.source);
      bySource[r.source] = { docs: r.docs, tokens: c?.docs === r.docs ? { count: c.tokens, kind: 'exact' } : { count: r.tokens, kind: 'estimate' } };
    }
  } finally {
    db.close();
  }
  const counts = Object.values(bySource);
  const docs = counts.reduce((n, c) => n + c.docs, 0);
  const tokens = { count: counts.reduce((n, c) => n + c.tokens.count, 0), kind: counts.every((c) => c.tokens.kind === 'exact') ? ('exact' as const) : ('estimate' as const) };
  const file = async (path: string, role: string, extra: Pick<OutputRecord, 'docs' | 'tokens' | 'bySource'>): Promise<OutputRecord> => ({
    path, role, size: (await stat(path)).size, sha256: await sha256File(path), ...extra,
  });
  const outputs = [await file(indexPath(root), 'index', { docs, tokens, bySource })];
  const shards = run.search ? (await readdir(searchPath(root)).catch(() => [] as string[])).filter((n) => n.endsWith('.sqlite')).sort() : [];
  for (const n of shards) outputs.push(await file(join(searchPath(root), n), 'search', { docs: null, tokens: null }));
  return writeRunManifest(root, { stage: 'index', started: run.started, config: run.config }, inputs, outputs, new Map(), own);
}
