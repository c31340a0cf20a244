// A byte-level BPE tokenizer (GPT-2, GPT-NeoX, OLMo, Llama 3 style): added tokens → normalizer → pre-tokenizer → cached BPE.
import { ownCopy } from '../../text/own-copy.js';
import { AddedTokenSplitter } from './added.js';
import { CHAR_TO_BYTE, Utf8Scratch } from './bytes.js';
import type { BpeModel } from './bpe.js';
import type { AddedTokenSpec, TextTokenizer } from './types.js';

const WS = '\\p{White_Space}';
/**
 * GPT-2's split pattern as HF tokenizers runs it (Oniguruma): `\s` is Unicode White_Space, so
 * U+0085 is a space and U+FEFF is not (JavaScript's own `\s` has it the other way round).
 */
const GPT2_SPLIT = new RegExp(`'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^${WS}\\p{L}\\p{N}]+|[${WS}]+(?![^${WS}])|[${WS}]+`, 'gu');

/** GPT-2's pre-tokens of a text (exported for tests of the whitespace rule). */
export function gpt2Pieces(text: string): string[] {
  return Array.from(text.matchAll(GPT2_SPLIT), (m) => m[0]);
}

/** How sections become pre-tokens: GPT-2's regex on raw text, or a function yielding byte-level strings. */
export type PreTokenizerSpec = { kind: 'gpt2'; addPrefixSpace: boolean; useRegex: boolean } | { kind: 'byte-level-strings'; split: (section: string) => string[] };

export interface ByteLevelOptions {
  name: string;
  model: BpeModel;
  added: readonly AddedTokenSpec[];
  normalize: ((s: string) => string) | null;
  preTokenizer: PreTokenizerSpec;
  /** Dolma's `encode_special_tokens`: special tokens in the text are tokenized as text. */
  encodeSpecialTokens: boolean;
  hasPrefixSpace: boolean;
}

/** Pre-tokens repeat a lot; results are cached in two generations so hot entries survive a reset. */
const CACHE_ENTRIES = 200_000;
const CACHE_MAX_PIECE = 256;

export class ByteLevelBpeTokenizer implements TextTokenizer {
  readonly engine = 'byte-level-bpe';
  readonly name: string;
  readonly vocabSize: number;
  readonly hasPrefixSpace: boolean;
  readonly #o: ByteLevelOptions;
  readonly #raw: AddedTokenSplitter | null;
  readonly #normalized: AddedTokenSplitter | null;
  readonly #addedById = new Map<number, string>();
  readonly #addedByContent = new Map<string, number>();
  readonly #idToToken: string[] = [];
  readonly #utf8 = new Utf8Scratch();
  #hot = new Map<string, number | number[]>();
  #cold = new Map<string, number | number[]>();

  constructor(o: ByteLevelOptions) {
    this.#o = o;
    this.name = o.name;
    this.hasPrefixSpace = o.hasPrefixSpace;
    for (const [token, id] of o.model.vocab) this.#idToToken[id] = token;
    let max = this.#idToToken.length - 1;
    for (const t of o.added) {
      this.#addedById.set(t.id, t.content);
      this.#addedByContent.set(t.content, t.id);
      max = Math.max(max, t.id);
    }
    this.vocabSize = max + 1;
    const matched = o.added.filter((t) => !(o.encodeSpecialTokens && t.special));
    const norm = o.normalize;
    this.#raw = AddedTokenSplitter.create(matched.filter((t) => !t.normalized || norm === null));
    this.#normalized = norm === null ? null : AddedTokenSplitter.create(matched.filter((t) => t.normalized), (t) => norm(t.content));
  }

  encode(text: string): number[] {
    const out: number[] = [];
    for (const section of this.#raw ? this.#raw.split(text) : [text]) {
      if (typeof section !== 'string') {
        out.push(section.id);
        continue;
      }
      if (section.length === 0) continue;
      const normalized = this.#o.normalize ? this.#o.normalize(section) : section;
      for (const sub of this.#normalized ? this.#normalized.split(normalized) : [normalized]) {
        if (typeof sub !== 'string') out.push(sub.id);
        else if (sub.length > 0) this.#encodeSection(sub, out);
      }
    }
    return out;
  }

  #encodeSection(section: string, out: number[]): void {
    const pre = this.#o.preTokenizer;
    if (pre.kind === 'byte-level-strings') {
      for (const piece of pre.split(section)) this.#encodePiece(piece, out, true);
      return;
    }
    const text = pre.addPrefixSpace && !section.startsWith(' ') ? ' ' + section : section;
    if (!pre.useRegex) return this.#encodePiece(text, out, false);
    const re = GPT2_SPLIT;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) this.#encodePiece(m[0], out, false);
  }

  #encodePiece(piece: string, out: number[], byteLevel: boolean): void {
    let hit = this.#hot.get(piece);
    if (hit === undefined) {
      hit = this.#cold.get(piece);
      if (hit !== undefined) this.#remember(piece, hit);
    }
    if (hit !== undefined) {
      if (typeof hit === 'number') out.push(hit);
      else for (const id of hit) out.push(id);
      return;
    }
    const start = out.length;
    if (byteLevel) {
      const bytes = new Uint8Array(piece.length);
      let n = 0;
      for (const ch of piece) {
        const b = CHAR_TO_BYTE.get(ch);
        if (b === undefined) throw new RangeError(`pre-tokenizer of ${this.name} produced ${JSON.stringify(ch)}, outside the byte-level alphabet`);
        bytes[n++] = b;
      }
      this.#o.model.encodeBytes(bytes, n, out);
    } else {
      const n = this.#utf8.encode(piece);
      this.#o.model.encodeBytes(this.#utf8.buf, n, out);
    }
    if (piece.length <= CACHE_MAX_PIECE) this.#remember(piece, out.length - start === 1 ? (out[start] as number) : out.slice(start));
  }

  #remember(piece: string, ids: number | number[]): void {
    if (this.#hot.size >= CACHE_ENTRIES) {
      this.#cold = this.#hot;
      this.#hot = new Map();
    }
    // A copy: the piece is a regex match or slice of the document, which it would keep alive (text/own-copy.ts).
    this.#hot.set(ownCopy(piece), ids);
  }

  decode(ids: readonly number[]): string {
    let text = '';
    const pending: number[] = [];
    const flush = (): void => {
      if (pending.length === 0) return;
      text += Buffer.from(pending).toString('utf8');
      pending.length = 0;
    };
    for (const id of ids) {
      const added = this.#addedById.get(id);
      if (added !== undefined) {
        flush();
        text += added;
        continue;
      }
      const token = this.#idToToken[id];
      if (token === undefined) throw new RangeError(`token id ${id} is not in the vocabulary of ${this.name}`);
      for (const ch of token) pending.push(CHAR_TO_BYTE.get(ch) ?? 0x3f);
    }
    flush();
    return text;
  }

  tokenToId(token: string): number | undefined {
    return this.#addedByContent.get(token) ?? this.#o.model.vocab.get(token);
  }
}
