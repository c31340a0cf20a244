// The mixer's per-line checks and the per-document arrays, shared by the exact (JSON.parse) reader and the byte scanner.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { loadXxhash } from '../../dedupe/bloom/hash.js';
import { jsonEqual } from '../../mix/filters/jsonpath/index.js';
import { MAX_DOC_DEPTH, nestsDeeperThan, TOO_DEEP } from '../../mix/json.js';
import type { Json } from '../../mix/filters/types.js';
import { DOC_DEPTH, T, tagOf } from '../store/tags.js';
import { ColumnSet } from './collect.js';
import { GrowU32, GrowU8 } from './grow.js';
import type { DocsExtract, FileStat, Problem } from './extract.js';
import type { DocCollectors } from './scan.js';
import { estimateTokens, measureText } from './text.js';

export async function fileStat(path: string, hash?: string): Promise<FileStat> {
  const st = await stat(path);
  return { size: st.size, mtimeMs: st.mtimeMs, hash: hash ?? (await hashFile(path)) };
}

/** xxhash64 of the raw (compressed) bytes: tells a touched file from a changed one. */
export async function hashFile(path: string): Promise<string> {
  const h = (await loadXxhash()).create64(0n);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest().toString(16).padStart(16, '0');
}

/** The mixer's document checks (shard.ts parseDocument): a JSON object with an `id`. */
export function parseDocument(text: string, file: string, line: number): Record<string, unknown> | string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return `${file}:${line}: malformed JSON: ${(e as Error).message}`;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return `${file}:${line}: a document line must be a JSON object`;
  if (!Object.hasOwn(doc, 'id')) return `${file}:${line}: document has no 'id'`;
  if (nestsDeeperThan(doc, MAX_DOC_DEPTH)) return `${file}:${line}: document is ${TOO_DEEP}`;
  return doc as Record<string, unknown>;
}

export type AttributeCheck = { attributes: Record<string, unknown> } | { code: string; message: string };

/** The mixer's attribute checks (shard.ts mergeAttributes): the record's attributes object, or why it cannot be merged. */
export function attributeRecord(line: string, id: Json, abs: string): AttributeCheck {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch (e) {
    return { code: 'PARSE', message: `malformed JSON in attributes: ${(e as Error).message}` };
  }
  const r = rec as { id?: unknown; attributes?: unknown } | null;
  if (r === null || typeof r !== 'object' || !Object.hasOwn(r, 'id')) return { code: 'PARSE', message: "attribute record has no 'id'" };
  if (nestsDeeperThan(r, MAX_DOC_DEPTH)) return { code: 'PARSE', message: `attribute record is ${TOO_DEEP}` };
  if (r.id !== id && !jsonEqual(r.id as Json, id)) {
    return { code: 'MISMATCH', message: `mismatched ids: documents file ${abs} has id ${JSON.stringify(id)} but attributes file has ${JSON.stringify(r.id)}` };
  }
  if (r.attributes === null || typeof r.attributes !== 'object' || Array.isArray(r.attributes)) return { code: 'PARSE', message: "attribute record's 'attributes' is not an object" };
  return { attributes: r.attributes as Record<string, unknown> };
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
