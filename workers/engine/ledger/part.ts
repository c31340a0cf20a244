// One shard's ledger rows, written by the process that mixes the shard into a part the run merges (merge.ts).
import { hash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Json } from '../mix/filters/types.js';
import { createPart, type LedgerDB } from './schema.js';

/** The id as the ledger stores and looks it up: strings as they are, other JSON values as JSON. */
export const idText = (id: unknown): string => (typeof id === 'string' ? id : JSON.stringify(id as Json) ?? 'null');

/** First 6 bytes of a sha256 as a non-negative integer (exact in a JS number): the hash index's key. */
export const shaKey = (sha: Buffer): number => sha.readUIntBE(0, 6);
/** shaKey of a sha256 given in hex. */
const hexKey = (hex: string): number => parseInt(hex.slice(0, 12), 16);

export function urlOfMetadata(m: unknown): string | null {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return null;
  const url = (m as Record<string, unknown>).url;
  return typeof url === 'string' ? url : null;
}

const COLUMNS = 14;
/** The `sha256` column's place in a docs row. */
const SHA_COLUMN = 3;
const BLOCK = 64;

/**
 * Rows go straight into 64-row INSERTs inside one transaction per shard (a run's parts are thrown away if a shard
 * fails): no object per document, since on one core the ledger's garbage costs as much as its SQL.
 */
export class LedgerPart {
  private readonly files = new Map<string, number>();
  private readonly insertFile;
  private readonly insertDoc;
  private readonly insertBlock;
  private values: unknown[] = [];
  private later: unknown[] = [];

  private constructor(private readonly db: LedgerDB, private readonly stream: number) {
    this.insertFile = db.prepare('INSERT INTO files(id, path) VALUES (?, ?)');
    // The text's hash arrives as hex and is stored as its 32 bytes (a Buffer per document cost more than the hashing).
    const row = `(${new Array(COLUMNS).fill('?').map((q, c) => (c === SHA_COLUMN ? 'unhex(?)' : q)).join(', ')})`;
    this.insertDoc = db.prepare(`INSERT INTO docs VALUES ${row}`);
    this.insertBlock = db.prepare(`INSERT INTO docs VALUES ${new Array(BLOCK).fill(row).join(', ')}`);
    db.exec('BEGIN');
  }

  /**
   * `append`: the part already holds this run's earlier shards (shards mixed one after another in one process share
   * a part, so the run's merge has nothing to copy); its rows stay and its files keep their ids.
   */
  static open(path: string, stream: number, append = false): LedgerPart {
    // A part left by a crashed run must not add its rows to this one's.
    if (!append) rmSync(path, { force: true });
    mkdirSync(dirname(path), { recursive: true });
    const part = new LedgerPart(createPart(path), stream);
    if (append) for (const f of part.db.prepare('SELECT id, path FROM files ORDER BY id').all() as { id: number; path: string }[]) part.files.set(f.path, f.id);
    return part;
  }

  /**
   * One input document: its identity as read (`id`, `source`, `metadata`, `text` before the mixer edited them),
   * where it was, its fate (KEEP or the mixer's reason), code points replaced, and its shard line and copies when kept.
   */
  add(id: unknown, source: unknown, metadata: unknown, text: unknown, file: string, line: number, fate: number, replaced: number, shard: string | null, outLine: number | null, copies = 0): void {
    this.row(this.values, id, source, metadata, text, file, line, fate, replaced, shard, outLine, copies);
    this.flushBlock();
  }

  /**
   * The same row, held back until flushLater(): the mixer works through a batch in parts, and the ledger lists
   * a batch's dropped documents before its kept ones. The text is hashed now, so the document need not wait.
   */
  addLater(id: unknown, source: unknown, metadata: unknown, text: unknown, file: string, line: number, fate: number, replaced: number, shard: string | null, outLine: number | null, copies = 0): void {
    this.row(this.later, id, source, metadata, text, file, line, fate, replaced, shard, outLine, copies);
  }

  /** Appends the held-back rows, in the order they were added. */
  flushLater(): void {
    const l = this.later;
    for (let k = 0; k < l.length; k += COLUMNS) {
      for (let c = 0; c < COLUMNS; c++) this.values.push(l[k + c]);
      this.flushBlock();
    }
    l.length = 0;
  }

  private row(v: unknown[], id: unknown, source: unknown, metadata: unknown, text: unknown, file: string, line: number, fate: number, replaced: number, shard: string | null, outLine: number | null, copies: number): void {
    const t = typeof text === 'string' ? text : '';
    // The one-shot hash of the string as UTF-8 (lone surrogates as U+FFFD, as Buffer.from writes them), in hex: a
    // Hash object's set-up, or a Buffer for each digest, cost more per document than the bytes.
    const sha = hash('sha256', t, 'hex');
    v.push(idText(id), typeof source === 'string' ? source : '', urlOfMetadata(metadata), sha, hexKey(sha), this.stream, this.fileId(file), line, fate, replaced);
    v.push(shard === null ? null : this.fileId(shard), outLine, Buffer.byteLength(t, 'utf8'), copies);
  }

  private flushBlock(): void {
    const v = this.values;
    if (v.length === BLOCK * COLUMNS) {
      this.insertBlock.run(v);
      v.length = 0;
    }
  }

  /** Writes what is pending and closes the part (on success; a failed shard's part is discarded unread). */
  close(): void {
    this.flushLater();
    const v = this.values;
    for (let k = 0; k < v.length; k += COLUMNS) this.insertDoc.run(v.slice(k, k + COLUMNS));
    this.values = [];
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }

  private fileId(path: string): number {
    let id = this.files.get(path);
    if (id === undefined) {
      id = this.files.size + 1;
      this.insertFile.run(id, path);
      this.files.set(path, id);
    }
    return id;
  }
}
