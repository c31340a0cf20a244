// A document's words numbered once per pass (dense ids, characters end to end), shared by the Gopher taggers.
import { isPySpace } from '../../../text/spacy/tokenizer.js';
import { tokenizerFor, type TokenOffsets } from '../../../text/words.js';
import { viewOf } from '../../view.js';
import type { Profile } from './common.js';

/**
 * `split_into_words(text)` without a string per word: word i is `chars[starts[i], starts[i + 1])` and has id `ids[i]`
 * (ids in first-seen order; equal words, equal ids). `chars` is `"".join(words)` as UTF-16 units.
 */
export interface WordIds {
  count: number;
  ids: Int32Array;
  /** Distinct words. */
  vocab: number;
  /** Per id: `len(word)` in code points. */
  cpLens: Int32Array;
  /** Per id: the index of its first occurrence. */
  first: Int32Array;
  chars: Uint16Array;
  /** count + 1 offsets into chars. */
  starts: Int32Array;
}

const PY_SPACE = isPySpace;

/** The words of `text` as DataTrove's split_into_words has them for this profile, numbered (shared per document). */
export function wordIdsFor(text: string, language: string, profile: Profile): WordIds {
  const view = viewOf(text);
  if (profile !== 'head') return view.get(`datatrove:word-ids:nltk`, () => wordIdsOf(view.words(language, profile)));
  return view.get(`datatrove:word-ids:${language}`, (t) => {
    const tokens = view.spacyTokens(language);
    // The same numbering in C (native/spacy.c) when the addon is built.
    const native = tokenizerFor(language).nativeWords;
    if (native === null) return wordIdsOfTokens(t, tokens);
    const b = new Builder(tokens.starts.length, t.length);
    return b.filled(native(t, tokens, b.ids, b.cpLens, b.first, b.starts, b.chars));
  });
}

/** The non-whitespace spaCy tokens numbered, as DocView.words keeps them: the JavaScript of spacyWords. */
export function wordIdsOfTokens(text: string, { starts, ends }: TokenOffsets): WordIds {
  const b = new Builder(starts.length, text.length);
  for (let i = 0; i < starts.length; i++) {
    const a = starts[i] as number;
    if (!PY_SPACE(text.charCodeAt(a))) b.add(text, a, ends[i] as number);
  }
  return b.done();
}

/** Numbers a list of words (the NLTK profile's, and tests). */
export function wordIdsOf(words: readonly string[]): WordIds {
  let chars = 0;
  for (const w of words) chars += w.length;
  const b = new Builder(words.length, chars);
  for (const w of words) b.add(w, 0, w.length);
  return b.done();
}

// Open-addressing table from word hash to id + 1, reused from document to document (cleared per build).
let slots = new Int32Array(1024);
let hashes = new Int32Array(512);

class Builder {
  readonly ids: Int32Array;
  readonly cpLens: Int32Array;
  readonly first: Int32Array;
  readonly starts: Int32Array;
  readonly chars: Uint16Array;
  private readonly mask: number;
  private count = 0;
  private vocab = 0;

  constructor(maxWords: number, maxChars: number) {
    // One buffer for every array: a document costs one allocation.
    const buf = new ArrayBuffer(4 * (3 * maxWords + maxWords + 1) + 2 * maxChars);
    this.ids = new Int32Array(buf, 0, maxWords);
    this.cpLens = new Int32Array(buf, 4 * maxWords, maxWords);
    this.first = new Int32Array(buf, 8 * maxWords, maxWords);
    this.starts = new Int32Array(buf, 12 * maxWords, maxWords + 1);
    this.chars = new Uint16Array(buf, 4 * (4 * maxWords + 1), maxChars);
    let cap = 1024;
    while (cap < maxWords * 2) cap *= 2;
    if (slots.length < cap) slots = new Int32Array(cap);
    else slots.fill(0, 0, cap);
    if (hashes.length < maxWords) hashes = new Int32Array(cap);
    this.mask = cap - 1;
  }

  add(src: string, a: number, b: number): void {
    const { chars, starts } = this;
    const k = this.count++;
    const from = starts[k] as number;
    let p = from;
    let h = 0;
    for (let i = a; i < b; i++) {
      const c = src.charCodeAt(i);
      chars[p++] = c;
      h = (Math.imul(h, 0x01000193) + c) | 0;
    }
    starts[k + 1] = p;
    let s = Math.imul(h ^ (h >>> 16), 0x85ebca6b) & this.mask;
    for (let e = slots[s] as number; e !== 0; e = slots[s] as number) {
      const id = e - 1;
      if (hashes[id] === h && this.same(this.first[id] as number, from, p)) {
        this.ids[k] = id;
        return;
      }
      s = (s + 1) & this.mask;
    }
    const id = this.vocab++;
    slots[s] = id + 1;
    hashes[id] = h;
    this.ids[k] = id;
    this.first[id] = k;
    this.cpLens[id] = codePoints(chars, from, p);
  }

  /** Whether word `w` has the characters chars[from, to). */
  private same(w: number, from: number, to: number): boolean {
    const { chars, starts } = this;
    const a = starts[w] as number;
    if ((starts[w + 1] as number) - a !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (chars[a + i] !== chars[from + i]) return false;
    return true;
  }

  /** The result when something else filled the arrays with `count` words, `vocab` distinct. */
  filled([count, vocab]: [number, number]): WordIds {
    this.count = count;
    this.vocab = vocab;
    return this.done();
  }

  done(): WordIds {
    const { count, vocab } = this;
    return {
      count,
      ids: this.ids.subarray(0, count),
      vocab,
      cpLens: this.cpLens.subarray(0, vocab),
      first: this.first.subarray(0, vocab),
      chars: this.chars.subarray(0, this.starts[count]),
      starts: this.starts.subarray(0, count + 1),
    };
  }
}

/** `cpLength` of chars[a, b): a high surrogate followed by a low one is one code point. */
function codePoints(chars: Uint16Array, a: number, b: number): number {
  let n = b - a;
  for (let i = a; i < b - 1; i++) {
    if (((chars[i] as number) & 0xfc00) === 0xd800 && ((chars[i + 1] as number) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}
