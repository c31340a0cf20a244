// One shard's ledger rows, written by the process that mixes the shard into a part the run merges (merge.ts).
import { hash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Json } from '../mix/filters/types.js';
import { createPart, type LedgerDB } from './schema.js';

/** What the mixer knows about one document once its fate is decided. */
export interface LedgerRow {
  /** Taken from the input document before discard_fields and replacement touch it (see rowOf). */
  id: string;
  source: string;
  url: string | null;
  /** Input text before span replacement (null when the document has no string `text`). */
  text: string | null;
  file: string;
  line: number;
  fate: number;
  replaced: number;
  /** The output shard and 1-based line, for kept documents. */
  shard: string | null;
  outLine: number | null;
}

/** The id as the ledger stores and looks it up: strings as they are, other JSON values as JSON. */
export const idText = (id: unknown): string => (typeof id === 'string' ? id : JSON.stringify(id as Json) ?? 'null');

/** First 6 bytes of a sha256 as a non-negative integer (exact in a JS number): the hash index's key. */
export const shaKey = (sha: Buffer): number => sha.readUIntBE(0, 6);

/** The document's identity fields, as the ledger records them. */
export function identityOf(doc: Record<string, unknown>): Pick<LedgerRow, 'id' | 'source' | 'url' | 'text'> {
  return { id: idText(doc.id), source: typeof doc.source === 'string' ? doc.source : '', url: urlOf(doc), text: typeof doc.text === 'string' ? doc.text : null };
}

export function urlOf(doc: Record<string, unknown>): string | null {
  const m = doc.metadata;
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return null;
  const url = (m as Record<string, unknown>).url;
  return typeof url === 'string' ? url : null;
}

const COLUMNS = 12;
const BLOCK = 64;

export class LedgerPart {
  private readonly files = new Map<string, number>();
  private lastPath = '';
  private lastId = 0;
  private readonly insertFile;
  private readonly insertDoc;
  private readonly insertBlock;
  private readonly insertMany;

  private constructor(private readonly db: LedgerDB, private readonly stream: number) {
    this.insertFile = db.prepare('INSERT INTO files(id, path) VALUES (?, ?)');
    const row = `(${new Array(COLUMNS).fill('?').join(', ')})`;
    this.insertDoc = db.prepare(`INSERT INTO docs VALUES ${row}`);
    // Many rows per statement: binding one statement per row costs more than the row itself.
    this.insertBlock = db.prepare(`INSERT INTO docs VALUES ${new Array(BLOCK).fill(row).join(', ')}`);
    this.insertMany = db.transaction((rows: readonly LedgerRow[]) => {
      const values: unknown[] = [];
      let n = 0;
      for (const r of rows) {
        this.values(r, values);
        if (++n === BLOCK) {
          this.insertBlock.run(values);
          values.length = 0;
          n = 0;
        }
      }
      for (let k = 0; k < n; k++) this.insertDoc.run(values.slice(k * COLUMNS, (k + 1) * COLUMNS));
    });
  }

  static open(path: string, stream: number): LedgerPart {
    // A part left by a crashed run must not add its rows to this one's.
    rmSync(path, { force: true });
    mkdirSync(dirname(path), { recursive: true });
    return new LedgerPart(createPart(path), stream);
  }

  /** Records a batch in one transaction (one per 512-line batch keeps the cost per row near a microsecond). */
  write(rows: readonly LedgerRow[]): void {
    if (rows.length > 0) this.insertMany(rows);
  }

  close(): void {
    this.db.close();
  }

  private fileId(path: string): number {
    if (path === this.lastPath) return this.lastId;
    let id = this.files.get(path);
    if (id === undefined) {
      id = this.files.size + 1;
      this.insertFile.run(id, path);
      this.files.set(path, id);
    }
    // Rows come file by file: the same input (and shard) many times in a row.
    this.lastPath = path;
    this.lastId = id;
    return id;
  }

  private values(r: LedgerRow, out: unknown[]): void {
    // The one-shot hash: most of a Hash object's cost per document is its set-up, not the bytes.
    const sha = hash('sha256', r.text ?? '', 'buffer');
    const shard = r.shard === null ? null : this.fileId(r.shard);
    out.push(r.id, r.source, r.url, sha, shaKey(sha), this.stream, this.fileId(r.file), r.line, r.fate, r.replaced, shard, r.outLine);
  }
}
