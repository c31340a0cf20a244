// Dolma's MemmapWriter: raw little-endian `.npy` (no header) + gzip CSV `start,end,id,src,loc`, size-capped in tokens.
import { AtomicWriter } from '../io/index.js';
import { countSource } from '../manifest/write.js';
import type { TokenizedDoc } from './documents.js';
import { partPaths } from './plan.js';

export interface PartInfo {
  npy: string;
  csv: string;
  docs: number;
  tokens: number;
  /** Holds one document of ≥ max_size tokens (Dolma would loop forever on it, #272). */
  oversized: boolean;
  /** Both files as stored (hashed while written) and documents/tokens per `source`, for the run manifest. */
  stored: { npy: { size: number; sha256: string }; csv: { size: number; sha256: string } };
  bySource: Record<string, { docs: number; tokens: number }>;
}

/** Python `csv.writer` (QUOTE_MINIMAL): quote a field holding `,` `"` `\r` or `\n`, doubling quotes. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

class Part {
  docs = 0;
  tokens = 0;
  readonly bySource: Record<string, { docs: number; tokens: number }> = {};

  private constructor(
    readonly paths: { npy: string; csv: string },
    private readonly npy: AtomicWriter,
    private readonly csv: AtomicWriter,
  ) {}

  static async open(paths: { npy: string; csv: string }): Promise<Part> {
    const npy = await AtomicWriter.open(paths.npy, { codec: 'plain' });
    try {
      return new Part(paths, npy, await AtomicWriter.open(paths.csv, { codec: 'gzip' }));
    } catch (e) {
      await npy.abort();
      throw e;
    }
  }

  async write(doc: TokenizedDoc): Promise<void> {
    const start = this.tokens;
    this.tokens += doc.tokens.length;
    this.docs++;
    countSource(this.bySource, doc.source, doc.tokens.length);
    // Typed arrays are in host order; the engine refuses to start on a big-endian host (runtime.ts).
    await this.npy.write(Buffer.from(doc.tokens.buffer, doc.tokens.byteOffset, doc.tokens.byteLength));
    // Python's csv module ends rows with \r\n.
    await this.csv.write(`${start},${this.tokens},${csvField(doc.id)},${csvField(doc.src)},${doc.loc}\r\n`);
  }

  /** Complete both files under their `.tmp` names; the run publishes them together at the end. */
  async commit(): Promise<PartInfo['stored']> {
    await this.npy.commit({ deferRename: true });
    await this.csv.commit({ deferRename: true });
    return { npy: { size: this.npy.bytesOut, sha256: this.npy.sha256 }, csv: { size: this.csv.bytesOut, sha256: this.csv.sha256 } };
  }

  async abort(): Promise<void> {
    await Promise.all([this.npy.abort(), this.csv.abort()]);
  }
}

/**
 * The memmaps of one group (`<prefix>-00000`, `-00001`, …). A file is created only when a document
 * goes into it, so no empty output ever exists (#225). A document fits when `len + written <
 * max_tokens`, as in Dolma; one that does not fit even into an empty file is written alone into
 * its own file, which is then closed (Dolma opens new empty memmaps for it forever, #272).
 */
export class GroupWriter {
  readonly parts: PartInfo[] = [];
  #current: Part | null = null;
  #next = 0;

  constructor(
    private readonly prefix: string,
    private readonly maxTokens: number,
  ) {}

  /** Writes documents in order until one does not fit; returns the rest (Dolma's `write_many`). */
  async writeMany(docs: readonly TokenizedDoc[]): Promise<TokenizedDoc[]> {
    for (let k = 0; k < docs.length; k++) {
      const doc = docs[k] as TokenizedDoc;
      const part = this.#current ?? (this.#current = await Part.open(partPaths(this.prefix, this.#next++)));
      if (doc.tokens.length + part.tokens >= this.maxTokens) {
        if (part.tokens > 0) return docs.slice(k);
        await part.write(doc);
        await this.rotate(true);
        continue;
      }
      await part.write(doc);
    }
    return [];
  }

  /** Closes the current file (if any); the next document starts a new one. */
  async rotate(oversized = false): Promise<void> {
    const part = this.#current;
    if (part === null) return;
    this.#current = null;
    const stored = await part.commit();
    this.parts.push({ ...part.paths, docs: part.docs, tokens: part.tokens, oversized, stored, bySource: part.bySource });
  }

  /** Deletes the temporary files of the open part (committed parts are discarded by the runtime). */
  async abort(): Promise<void> {
    const part = this.#current;
    this.#current = null;
    await part?.abort();
  }
}
