// Writes extracted files into the index tables (inside the build's one transaction).
import type { Json } from '../../mix/filters/types.js';
import type { DB } from '../store/db.js';
import { pack } from '../store/pack.js';
import { DOC_SET, pathKey } from '../store/tags.js';
import type { ColumnData } from './collect.js';
import type { DocsExtract, FileExtract, SetExtract } from './extract.js';

/** Documents per INSERT statement: one call binds many rows (measured ≈ 2.5× faster than a row per call). */
const ROWS = 64;
const DOC_ROW = '(?, ?, ?, ?)';
const INSERT_DOCS = 'INSERT INTO docs(file, ord, id, id_json) VALUES ';

function statements(db: DB) {
  return {
    insertDocs: db.prepare(INSERT_DOCS + Array<string>(ROWS).fill(DOC_ROW).join(', ')),
    fileId: db.prepare('SELECT id FROM files WHERE path = ?').pluck(),
    insertFile: db.prepare('INSERT INTO files(path, size, mtime, hash, docs, raw_bytes, problem, data, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    insertDoc: db.prepare(INSERT_DOCS + DOC_ROW),
    insertAttr: db.prepare('INSERT INTO attr_files(set_name, file, path, size, mtime, hash, problem) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    insertColumn: db.prepare('INSERT INTO columns(set_name, path, file, present, data, dict) VALUES (?, ?, ?, ?, ?, ?)'),
    deleteAttr: db.prepare('DELETE FROM attr_files WHERE set_name = ? AND file = ?'),
    deleteSetColumns: db.prepare('DELETE FROM columns WHERE set_name = ? AND file = ?'),
    touchFile: db.prepare('UPDATE files SET mtime = ? WHERE id = ?'),
    touchAttr: db.prepare('UPDATE attr_files SET mtime = ? WHERE set_name = ? AND file = ?'),
  };
}

export class IndexWriter {
  private readonly s: ReturnType<typeof statements>;

  constructor(private readonly db: DB) {
    this.s = statements(db);
  }

  /** Removes a documents file and everything derived from it. */
  removeFile(id: number): void {
    for (const table of ['docs', 'attr_files', 'columns']) this.db.prepare(`DELETE FROM ${table} WHERE file = ?`).run(id);
    this.db.prepare('DELETE FROM files WHERE id = ?').run(id);
  }

  removeAttributes(set: string, file: number): void {
    this.s.deleteAttr.run(set, file);
    this.s.deleteSetColumns.run(set, file);
  }

  touchFile(id: number, mtimeMs: number): void {
    this.s.touchFile.run(mtimeMs, id);
  }

  touchAttributes(set: string, file: number, mtimeMs: number): void {
    this.s.touchAttr.run(mtimeMs, set, file);
  }

  write(x: FileExtract, attrPaths: Map<string, string>): void {
    let id = this.s.fileId.get(x.file) as number | undefined;
    // A file written just now has no attribute rows yet (removeFile took its old ones).
    const fresh = x.docs !== null;
    if (x.docs !== null) {
      if (id !== undefined) this.removeFile(id);
      id = this.writeDocs(x.file, x.docs);
    }
    if (id === undefined) throw new Error(`internal: attributes for unindexed file ${x.file}`);
    for (const set of x.sets) this.writeSet(id, set, attrPaths.get(set.name) ?? '', fresh);
  }

  private writeDocs(path: string, d: DocsExtract): number {
    const data = pack({ bytes: d.bytes, chars: d.chars, trimmed: d.trimmed, tokens: d.tokens, textTag: d.textTag, sourceCodes: d.sourceCodes });
    const problem = d.problem === null ? null : JSON.stringify(d.problem);
    const info = this.s.insertFile.run(path, d.stat.size, d.stat.mtimeMs, d.stat.hash, d.count, d.rawBytes, problem, asBuffer(data), JSON.stringify(d.sources));
    const id = Number(info.lastInsertRowid);
    const args: unknown[] = new Array<unknown>(ROWS * 4);
    let i = 0;
    for (; i + ROWS <= d.count; i += ROWS) {
      for (let r = 0; r < ROWS; r++) docRow(args, r * 4, id, i + r, d);
      this.s.insertDocs.run(args);
    }
    for (; i < d.count; i++) this.s.insertDoc.run(docRow(args, 0, id, i, d).slice(0, 4));
    this.writeColumns(DOC_SET, id, d.columns);
    return id;
  }

  private writeSet(file: number, s: SetExtract, path: string, fresh: boolean): void {
    if (!fresh) this.removeAttributes(s.name, file);
    this.s.insertAttr.run(s.name, file, path, s.stat.size, s.stat.mtimeMs, s.stat.hash, s.problem === null ? null : JSON.stringify(s.problem));
    this.writeColumns(s.name, file, s.columns);
  }

  private writeColumns(set: string, file: number, cols: readonly ColumnData[]): void {
    for (const c of cols) this.s.insertColumn.run(set, pathKey(c.path), file, c.present, asBuffer(c.blob), JSON.stringify(c.dict));
  }
}

/** Fills `args[at, at + 4)` with the docs row of document `i` of file `file` (its other figures are in files.data). */
function docRow(args: unknown[], at: number, file: number, i: number, d: DocsExtract): unknown[] {
  const raw = d.ids[i] as Json;
  const isString = typeof raw === 'string';
  args[at] = file;
  args[at + 1] = i;
  args[at + 2] = isString ? raw : JSON.stringify(raw);
  args[at + 3] = isString ? 0 : 1;
  return args;
}

/** Results from pool workers arrive structured-cloned: Buffers become plain Uint8Arrays, which SQLite refuses. */
const asBuffer = (b: Uint8Array): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));
