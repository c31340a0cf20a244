// Documents to token sequences as Dolma's `tokenize_file`: strip, skip empty, encode, add BOS/EOS; one cursor per input file.
import { createHash } from 'node:crypto';
import { AssayError } from '../errors.js';
import { compressedDeltas, readJsonRecords, type JsonRecord } from '../io/index.js';
import type { TextTokenizer } from './tokenizer/types.js';

export type Dtype = 'uint8' | 'uint16' | 'uint32';
export type TokenArray = Uint8Array | Uint16Array | Uint32Array;

export interface DocSettings {
  /** Dotted path of the text field (`text`, or e.g. `body.text`). */
  textField: string;
  /** Dotted path of the id field; null → `sha256(src)-<line>` as Dolma. */
  idField: string | null;
  idFieldType: 'str' | 'int';
  bos: number | null;
  eos: number | null;
  segmentBeforeTokenization: boolean;
  dtype: Dtype;
  skipBadLines: boolean;
}

export interface TokenizedDoc {
  id: string;
  /** The input path as matched by the documents glob (`src` in the metadata CSV). */
  src: string;
  /** 1-based line number in `src`. */
  loc: number;
  /** The document's `source` field ('' when absent), for per-source token counts. */
  source: string;
  tokens: TokenArray;
  /** Tokens of the text alone, before BOS/EOS. */
  raw: number;
}

export interface CursorCounters {
  skippedEmpty: number;
  badLines: number;
  badLineSamples: string[];
}

export interface CursorHooks {
  signal?: AbortSignal;
  onProgress?: (delta: { compressedBytes: number; bytes: number; docs: number }) => void;
  log?: (message: string) => void;
}

/** Python `str.isspace()` for one UTF-16 unit (every such character is in the BMP). */
function isPyWs(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** Python `s.strip()` in linear time (a regex anchored at the end is quadratic on long inner whitespace runs). */
export function pyStripLinear(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPyWs(s.charCodeAt(a))) a++;
  while (b > a && isPyWs(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Dolma `split_into_paragraphs`: `(^\n*|\n+)[^\n]*` matches, with a space before each later paragraph when the tokenizer adds one. */
function encodeSegmented(tokenizer: TextTokenizer, text: string): number[] {
  const out: number[] = [];
  let i = 0;
  for (const m of text.matchAll(/(^\n*|\n+)[^\n]*/g)) {
    const prefixed = tokenizer.hasPrefixSpace && i > 0;
    const ids = tokenizer.encode((prefixed ? ' ' : '') + m[0]);
    for (let k = prefixed ? 1 : 0; k < ids.length; k++) out.push(ids[k] as number);
    i++;
  }
  return out;
}

/** Token ids of one document's text, or null for a text that is empty once stripped (Dolma skips it). */
export function encodeText(tokenizer: TextTokenizer, text: string, s: Pick<DocSettings, 'bos' | 'eos' | 'segmentBeforeTokenization'>): { ids: number[]; raw: number } | null {
  const stripped = pyStripLinear(text);
  if (stripped.length === 0) return null;
  const ids = s.segmentBeforeTokenization ? encodeSegmented(tokenizer, stripped) : tokenizer.encode(stripped);
  const raw = ids.length;
  // Dolma's add_special_tokens: nothing for an empty encoding; BOS/EOS only where not already present.
  if (ids.length > 0) {
    if (s.bos !== null && ids[0] !== s.bos) ids.unshift(s.bos);
    if (s.eos !== null && ids[ids.length - 1] !== s.eos) ids.push(s.eos);
  }
  return { ids, raw };
}

export function toTokenArray(ids: readonly number[], dtype: Dtype): TokenArray {
  return dtype === 'uint32' ? Uint32Array.from(ids) : dtype === 'uint16' ? Uint16Array.from(ids) : Uint8Array.from(ids);
}

function getPath(record: Record<string, unknown>, path: string): unknown {
  let v: unknown = record;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** Documents of one input file, tokenized one at a time as the ring asks for them. */
export class FileCursor {
  readonly #records: AsyncGenerator<JsonRecord[]>;
  #buf: JsonRecord[] = [];
  #pos = 0;
  readonly #srcHash: string;
  /** sha256 of the input file as stored, hashed while it was read; set once the file has been read to its end. */
  sha256: string | undefined;

  constructor(
    readonly path: string,
    readonly src: string,
    private readonly tokenizer: TextTokenizer,
    private readonly settings: DocSettings,
    private readonly counters: CursorCounters,
    private readonly hooks: CursorHooks,
  ) {
    this.#srcHash = createHash('sha256').update(src).digest('hex');
    const onBadLine = settings.skipBadLines ? (e: AssayError): void => this.#bad(e) : undefined;
    this.#records = readJsonRecords(path, { signal: hooks.signal, onBadLine, onProgress: compressedDeltas(hooks.onProgress), onDigest: (d) => (this.sha256 = d.sha256) });
  }

  /** The next non-empty document, or null at the end of the file. */
  async next(): Promise<TokenizedDoc | null> {
    for (;;) {
      while (this.#pos < this.#buf.length) {
        const doc = this.#toDoc(this.#buf[this.#pos++] as JsonRecord);
        if (doc !== null) return doc;
      }
      const r = await this.#records.next();
      if (r.done) return null;
      this.#buf = r.value;
      this.#pos = 0;
      this.hooks.onProgress?.({ compressedBytes: 0, bytes: r.value.reduce((n, x) => n + x.bytes + 1, 0), docs: r.value.length });
    }
  }

  #bad(e: AssayError): void {
    if (!this.settings.skipBadLines) throw e;
    this.counters.badLines++;
    if (this.counters.badLineSamples.length < 20) this.counters.badLineSamples.push(e.message);
    this.hooks.log?.(`skipped bad line: ${e.message}`);
  }

  #toDoc(rec: JsonRecord): TokenizedDoc | null {
    const s = this.settings;
    const fail = (msg: string): null => {
      this.#bad(new AssayError('PARSE', msg, { file: this.path, line: rec.line }));
      return null;
    };
    const text = getPath(rec.value, s.textField);
    if (typeof text !== 'string') return fail(text === undefined ? `document has no '${s.textField}' field` : `'${s.textField}' must be a string`);
    let id: string;
    if (s.idField === null) id = `${this.#srcHash}-${rec.line}`;
    else {
      const v = getPath(rec.value, s.idField);
      if (s.idFieldType === 'int' ? !Number.isSafeInteger(v) : typeof v !== 'string') {
        return fail(v === undefined ? `document has no '${s.idField}' field` : `'${s.idField}' must be ${s.idFieldType === 'int' ? 'an integer' : 'a string'} (fields.id_field_type: ${s.idFieldType})`);
      }
      id = String(v);
    }
    let enc: ReturnType<typeof encodeText>;
    try {
      enc = encodeText(this.tokenizer, text, s);
    } catch (e) {
      throw new AssayError('INTERNAL', `tokenizer failed: ${(e as Error).message}`, { file: this.path, line: rec.line, cause: e });
    }
    if (enc === null) {
      this.counters.skippedEmpty++;
      return null;
    }
    const source = rec.value['source'];
    return { id, src: this.src, loc: rec.line, source: typeof source === 'string' ? source : '', tokens: toTokenArray(enc.ids, s.dtype), raw: enc.raw };
  }

  async close(): Promise<void> {
    await this.#records.return(undefined);
  }
}
