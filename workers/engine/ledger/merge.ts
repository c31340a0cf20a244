// The mix run's side of the ledger: where each shard's part goes, and the merge into one indexed ledger per output folder.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DropReason } from '../mix/compile.js';
import { ledgerPathFor, MIX_INDEXES, writeLedgerFile, writeLedgerFromPart, type LedgerDB } from './schema.js';

/** Parts live beside the ledger until the merge; one per shard (shards mixed in one process share their first's), named by its output path (unique in a run). */
export const partsDir = (folder: string): string => join(folder, '.assay', 'ledger-parts');
export const partPathFor = (folder: string, shardOutput: string): string =>
  join(partsDir(folder), `${createHash('sha1').update(shardOutput).digest('hex').slice(0, 20)}.sqlite`);

export interface LedgerStream {
  index: number;
  name: string;
  reasons: readonly DropReason[];
}

/**
 * Writes `<folder>/.assay/ledger.sqlite` from the parts of the shards written into `folder`, in shard order,
 * then builds the lookup indexes once (cheaper than keeping them up to date row by row). `adoptFirst`: the first
 * part becomes the ledger itself instead of being copied into a new one (it is gone afterwards, whatever happens).
 */
export async function mergeLedger(folder: string, streams: readonly LedgerStream[], parts: readonly string[], run: Record<string, string>, adoptFirst = false): Promise<string> {
  const path = ledgerPathFor(folder);
  const [first, ...rest] = parts;
  if (adoptFirst && first !== undefined) return writeLedgerFromPart(path, first, (db) => fillLedger(db, streams, rest, run));
  return writeLedgerFile(path, 'mix', (db) => fillLedger(db, streams, parts, run));
}

/** The run's meta rows, its streams and rules, then each part's files and documents appended, then the indexes. */
function fillLedger(db: LedgerDB, streams: readonly LedgerStream[], parts: readonly string[], run: Record<string, string>): void {
  const meta = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)');
  for (const [k, v] of Object.entries(run)) meta.run(k, v);
  const stream = db.prepare('INSERT INTO streams(id, name) VALUES (?, ?)');
  const rule = db.prepare('INSERT INTO rules(stream, reason, key, text) VALUES (?, ?, ?, ?)');
  for (const s of streams) {
    stream.run(s.index, s.name);
    s.reasons.forEach((r, k) => rule.run(s.index, k, r.key, r.label));
  }
  for (const part of parts) {
    db.prepare('ATTACH DATABASE ? AS p').run(part);
    db.exec('BEGIN; INSERT OR IGNORE INTO files(path) SELECT path FROM p.files ORDER BY id;');
    const shift = fileIdShift(db);
    // The same rows either way; the shifted forms skip four lookups per row, and the unshifted one (a run's first
    // part when it is copied) is SQLite's transfer optimisation, which copies the records as they are.
    if (shift === 0) db.exec('INSERT INTO docs SELECT * FROM p.docs');
    else if (shift !== null) db.prepare(`INSERT INTO docs SELECT ${SHIFTED} FROM p.docs ORDER BY rowid`).run({ k: shift });
    else db.exec(`INSERT INTO docs SELECT ${JOINED} ORDER BY d.rowid`);
    db.exec('COMMIT; DETACH DATABASE p');
  }
  db.exec(MIX_INDEXES);
}

/** A part's docs with their file ids looked up by path in the ledger's `files`. */
const JOINED = `d.doc_id, d.source, d.url, d.sha256, d.sha_key, d.stream, f1.id, d.line, d.fate, d.replaced, f2.id, d.out_line, d.bytes, d.copies
  FROM p.docs d
  JOIN p.files pf1 ON pf1.id = d.file JOIN main.files f1 ON f1.path = pf1.path
  LEFT JOIN p.files pf2 ON pf2.id = d.shard LEFT JOIN main.files f2 ON f2.path = pf2.path`;
/** The same when every file's ledger id is its part id + :k (a NULL shard stays NULL). */
const SHIFTED = 'doc_id, source, url, sha256, sha_key, stream, file + :k, line, fate, replaced, shard + :k, out_line, bytes, copies';

/** k when each of the attached part's files has ledger id = part id + k (parts' files are new paths in order), else null. */
function fileIdShift(db: LedgerDB): number | null {
  const rows = db.prepare('SELECT f.id - pf.id AS k FROM p.files pf JOIN main.files f ON f.path = pf.path').all() as { k: number }[];
  const k = rows[0]?.k ?? 0;
  const total = (db.prepare('SELECT count(*) AS n FROM p.files').get() as { n: number }).n;
  return rows.length === total && rows.every((r) => r.k === k) ? k : null;
}

/** Removes a run's parts (after the merge, or when the run failed or was cancelled). */
export async function discardParts(folder: string): Promise<void> {
  await rm(partsDir(folder), { recursive: true, force: true });
}
