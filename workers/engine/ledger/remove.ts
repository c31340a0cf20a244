// `assay remove`: a new version of a mix output (and of its tokens) without the requested documents; the old one is untouched.
import { copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { AssayError } from '../errors.js';
import { AtomicWriter, discardTemp, promoteTemp, readLineBatches } from '../io/index.js';
import { loadManifest } from '../manifest/read.js';
import { manifestPathFor } from '../manifest/schema.js';
import { sha256File, sourceCounts, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { shaKey } from './part.js';
import { KEPT, ledgerPathFor, openLedger, openWritable, REMOVED, type LedgerDB } from './schema.js';
import { retokenize } from './retokenize.js';

export interface RemovalRequest {
  ids?: string[];
  urls?: string[];
  /** sha256 (hex) of texts. */
  hashes?: string[];
  /** The request files as given, recorded in the manifest with their hashes. */
  files?: string[];
}

export interface RemoveOptions {
  /** Removal requests that match no kept document are reported and, with this, skipped instead of refused. */
  allowMissing?: boolean;
  /** The tokens run that consumed `output`, and where its new version goes. */
  tokens?: { from: string; destination: string };
  signal?: AbortSignal;
  log?: (m: string) => void;
}

export interface RemoveResult {
  destination: string;
  removed: number;
  missing: string[];
  shards: { path: string; docs: number }[];
  tokens: string | null;
}

interface Hit {
  rowid: number;
  shard: string;
  out_line: number;
  /** Lines from out_line on that hold it (`assay.repeat`). */
  copies: number;
}

/** Reads one value per line (blank lines and surrounding spaces ignored). */
export async function readRequestFile(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new AssayError('IO', `cannot read the removal request (${e.code ?? e.message})`, { file: path });
  });
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/** Which kept rows each request names; a request that names none is missing. */
function match(db: LedgerDB, req: RemovalRequest): { hits: Map<number, Hit>; missing: string[] } {
  const hits = new Map<number, Hit>();
  const missing: string[] = [];
  const sql = (where: string): string =>
    `SELECT d.rowid, f.path AS shard, d.out_line, d.copies FROM docs d JOIN files f ON f.id = d.shard WHERE d.fate = ${KEPT} AND ${where}`;
  const byId = db.prepare(sql('d.doc_id = ?'));
  const byUrl = db.prepare(sql('d.url = ?'));
  const byHash = db.prepare(sql('d.sha_key = ? AND d.sha256 = ?'));
  const take = (label: string, rows: Hit[]): void => {
    if (rows.length === 0) missing.push(label);
    for (const r of rows) hits.set(r.rowid, r);
  };
  for (const id of req.ids ?? []) take(`id ${id}`, byId.all(id) as Hit[]);
  for (const url of req.urls ?? []) take(`url ${url}`, byUrl.all(url) as Hit[]);
  for (const h of req.hashes ?? []) {
    if (!/^[0-9a-f]{64}$/i.test(h)) throw new AssayError('CONFIG', `'${h}' is not a sha256 text hash (64 hex digits)`);
    const sha = Buffer.from(h, 'hex');
    take(`hash ${h}`, byHash.all(shaKey(sha), sha) as Hit[]);
  }
  return { hits, missing };
}

export async function removeDocuments(outputArg: string, destinationArg: string, req: RemovalRequest, opts: RemoveOptions = {}): Promise<RemoveResult> {
  const started = new Date();
  const output = resolve(outputArg);
  const destination = resolve(destinationArg);
  if (destination === output || destination.startsWith(output + sep) || output.startsWith(destination + sep)) {
    throw new AssayError('CONFIG', `the new version must go to a folder of its own, not in or around ${output}`, { field: 'destination' });
  }
  if (await stat(destination).then(() => true, () => false)) throw new AssayError('CONFIG', `${destination} already exists; give a new folder`, { field: 'destination' });
  const { db } = await openLedger(ledgerPathFor(output), 'mix');
  let hits: Map<number, Hit>;
  let missing: string[];
  let shards: string[];
  try {
    ({ hits, missing } = match(db, req));
    shards = (db.prepare('SELECT DISTINCT f.path FROM docs d JOIN files f ON f.id = d.shard ORDER BY f.path').all() as { path: string }[]).map((r) => r.path);
  } finally {
    db.close();
  }
  if (missing.length > 0 && !opts.allowMissing) {
    const list = missing.slice(0, 20).join(', ') + (missing.length > 20 ? `, … (${missing.length} in all)` : '');
    throw new AssayError('CONFIG', `${missing.length} requested document(s) are not in ${output} (not kept there): ${list}; nothing was changed (--allow-missing removes the others)`);
  }
  // Every shard the ledger knows, including ones left empty by the filter: a fresh mix writes those too.
  const manifest = await loadManifest(manifestPathFor(output)).catch(() => null);
  for (const o of manifest?.manifest.outputs ?? []) if (o.role === 'documents') shards.push(resolve(output, o.path));
  shards = [...new Set(shards)].sort();
  const drop = new Map<string, Set<number>>();
  for (const h of hits.values()) {
    let s = drop.get(h.shard);
    if (!s) drop.set(h.shard, (s = new Set()));
    for (let c = 0; c < Math.max(1, h.copies); c++) s.add(h.out_line + c);
  }
  const written: { path: string; from: string; docs: number; out: OutputRecord; read: InputRecord; lines: Map<number, number> }[] = [];
  try {
    for (const from of shards) written.push(await copyShard(from, join(destination, relative(output, from)), drop.get(from) ?? new Set(), opts.signal));
    for (const w of written) await promoteTemp(w.path);
  } catch (e) {
    await Promise.all(written.map((w) => discardTemp(w.path)));
    throw e;
  }
  await writeLedger(output, destination, hits, written);
  const request = { ids: req.ids ?? [], urls: req.urls ?? [], hashes: req.hashes ?? [], files: req.files ?? [], matched: hits.size, missing };
  const inputs: InputRecord[] = written.map((w) => w.read);
  for (const f of req.files ?? []) inputs.push({ path: resolve(f), role: 'removal-request', sha256: await sha256File(resolve(f)) });
  await writeRunManifest(destination, { stage: 'remove', started, config: { from: output, removal: request } }, inputs, written.map((w) => w.out));
  const tokens = opts.tokens ? await retokenize(opts.tokens.from, opts.tokens.destination, output, destination, opts) : null;
  return { destination, removed: hits.size, missing, shards: written.map((w) => ({ path: w.path, docs: w.docs })), tokens };
}

/** The shard without the dropped lines, as the same codec; maps each old kept line to its new line. */
async function copyShard(from: string, to: string, drop: ReadonlySet<number>, signal?: AbortSignal) {
  let sha256 = '';
  const w = await AtomicWriter.open(to, { mkdir: true });
  const lines = new Map<number, number>();
  const bySource: Record<string, { docs: number; tokens: number }> = {};
  let docs = 0;
  try {
    for await (const b of readLineBatches(from, { signal, onDigest: (d) => (sha256 = d.sha256) })) {
      let out = '';
      b.lines.forEach((line, k) => {
        const n = b.firstLine + k;
        if (drop.has(n)) return;
        lines.set(n, ++docs);
        out += line + '\n';
        const doc = JSON.parse(line) as { source?: unknown; text?: unknown };
        const src = typeof doc.source === 'string' ? doc.source : '';
        const c = (bySource[src] ??= { docs: 0, tokens: 0 });
        c.docs++;
        c.tokens += typeof doc.text === 'string' ? Math.ceil(Buffer.byteLength(doc.text, 'utf8') / 4) : 0;
      });
      if (out !== '') await w.write(out);
    }
    await w.commit({ deferRename: true });
  } catch (e) {
    await w.abort().catch(() => undefined);
    throw e;
  }
  const tokens = Object.values(bySource).reduce((n, c) => n + c.tokens, 0);
  return {
    path: to,
    from,
    docs,
    lines,
    read: { path: from, role: 'documents', sha256 },
    out: { path: to, role: 'documents', size: w.bytesOut, sha256: w.sha256, docs, tokens: { count: tokens, kind: 'estimate' as const }, bySource: sourceCounts(bySource, 'estimate') },
  };
}

/** The old ledger with removed documents marked and kept ones pointing at the new shards' lines. */
async function writeLedger(output: string, destination: string, hits: ReadonlyMap<number, Hit>, written: readonly { path: string; from: string; lines: Map<number, number> }[]): Promise<void> {
  const path = ledgerPathFor(destination);
  await mkdir(join(destination, '.assay'), { recursive: true });
  await copyFile(ledgerPathFor(output), `${path}.tmp`);
  const db = openWritable(`${path}.tmp`);
  try {
    db.transaction(() => {
      const gone = db.prepare(`UPDATE docs SET fate = ${REMOVED}, shard = NULL, out_line = NULL, copies = 0 WHERE rowid = ?`);
      for (const id of hits.keys()) gone.run(id);
      const files = db.prepare('UPDATE files SET path = ? WHERE path = ?');
      const rows = db.prepare('SELECT d.rowid AS rowid, d.out_line FROM docs d JOIN files f ON f.id = d.shard WHERE f.path = ?');
      const move = db.prepare('UPDATE docs SET out_line = ? WHERE rowid = ?');
      for (const w of written) {
        for (const r of rows.all(w.from) as { rowid: number; out_line: number }[]) move.run(w.lines.get(r.out_line) ?? null, r.rowid);
        files.run(w.path, w.from);
      }
    })();
  } finally {
    db.close();
  }
  await rename(`${path}.tmp`, path);
}
