// The mixer's per-line checks and the per-document arrays, shared by the exact (JSON.parse) reader and the byte scanner.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { loadXxhash } from '../../dedupe/bloom/hash.js';
import { AssayError } from '../../errors.js';
import { checkAttributeLine, checkDocumentLine } from '../../mix/fate.js';
import type { Json } from '../../mix/filters/types.js';
import { DOC_DEPTH, T, tagOf } from '../store/tags.js';
import { ColumnSet } from './collect.js';
import { GrowU32, GrowU8 } from './grow.js';
import type { DocsExtract, FileStat, Problem } from './extract.js';
import type { DocCollectors } from './scan.js';
import { estimateTokens, measureText } from './text.js';

/** Size, mtime and both hashes; what the reader did not hash on its way is hashed here in one more pass. */
export async function fileStat(path: string, hash?: string, sha256?: string): Promise<FileStat> {
  const st = await stat(path);
  const both = hash !== undefined && sha256 !== undefined ? { hash, sha256 } : await hashFileBoth(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ...both };
}

/** xxhash64 (the index's own change check) and sha256 (run manifests) of the raw bytes in one read. */
async function hashFileBoth(path: string): Promise<{ hash: string; sha256: string }> {
  const h = (await loadXxhash()).create64(0n);
  const sha = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    h.update(chunk as Buffer);
    sha.update(chunk as Buffer);
  }
  return { hash: h.digest().toString(16).padStart(16, '0'), sha256: sha.digest('hex') };
}

/** xxhash64 of the raw (compressed) bytes: tells a touched file from a changed one. */
export async function hashFile(path: string): Promise<string> {
  const h = (await loadXxhash()).create64(0n);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest().toString(16).padStart(16, '0');
}

/** The mixer's document checks (mix/fate.ts): the document, or the bad line's `file:line: message`. */
export function parseDocument(text: string, file: string, line: number): Record<string, unknown> | string {
  const doc = checkDocumentLine(text, file, line);
  return doc instanceof AssayError ? `${file}:${line}: ${doc.detail}` : doc;
}

export type AttributeCheck = { attributes: Record<string, unknown> } | { code: string; message: string };

/** The mixer's attribute checks (mix/fate.ts): the record's attributes object, or why it cannot be merged. */
export function attributeRecord(line: string, id: Json, abs: string): AttributeCheck {
  const r = checkAttributeLine(line, id, abs, '', 0);
  return r instanceof AssayError ? { code: r.code, message: r.detail } : { attributes: r };
}

/** Per-document measures and the documents' own columns of one file, in line order. */
export class DocsBuilder {
  readonly ids: Json[] = [];
  readonly columns = new ColumnSet(DOC_DEPTH, ['text', 'id']);
  rawBytes = 0;
  private readonly bytes = new GrowU32();
  private readonly chars = new GrowU32();
  private readonly trimmed = new GrowU32();
  private readonly tokens = new GrowU32();
  private readonly textTag = new GrowU8();
  private readonly sourceCodes = new GrowU32();
  private readonly sources = new Map<string, number>();

  /** The collectors the byte scanner writes the documents' own fields into. */
  collectors(): DocCollectors {
    const root = this.columns.root;
    return { root, text: root.child('text'), id: root.child('id'), source: root.child('source') };
  }

  /** A document JSON.parse read: measures, source and every member into the columns. */
  addParsed(doc: Record<string, unknown>): void {
    const ord = this.ids.length;
    const text = doc.text;
    const m = typeof text === 'string' ? measureText(text) : { bytes: 0, chars: 0, trimmed: 0 };
    this.add(doc.id as Json, tagOf(text), m.bytes, m.chars, m.trimmed, typeof doc.source === 'string' ? doc.source : '');
    this.columns.addObject(ord, doc);
  }

  /** A document the byte scanner read (it wrote the columns itself). */
  add(id: Json, textTag: number, bytes: number, chars: number, trimmed: number, source: string): void {
    this.ids.push(id);
    this.textTag.push(textTag);
    this.bytes.push(bytes);
    this.chars.push(chars);
    this.trimmed.push(trimmed);
    this.tokens.push(textTag === T.STR ? estimateTokens(bytes) : 0);
    let code = this.sources.get(source);
    if (code === undefined) this.sources.set(source, (code = this.sources.size));
    this.sourceCodes.push(code);
  }

  done(problem: Problem | null, stat: FileStat): DocsExtract {
    return {
      count: this.ids.length,
      bytes: this.bytes.done().slice(),
      chars: this.chars.done().slice(),
      trimmed: this.trimmed.done().slice(),
      tokens: this.tokens.done().slice(),
      textTag: this.textTag.done().slice(),
      sourceCodes: this.sourceCodes.done().slice(),
      sources: [...this.sources.keys()],
      ids: this.ids,
      columns: this.columns.columns(),
      problem,
      stat,
      rawBytes: this.rawBytes,
    };
  }
}
