// The words DataTrove's n-gram decontamination compares (spaCy-en tokens of simplify_text), each with its range in the original text.
import { ownCopy } from '../text/own-copy.js';
import { tokenizerFor } from '../text/words.js';
import { isPySpace } from '../text/spacy/tokenizer.js';
import { simplifyTracked } from './simplify-tracked.js';

/** Normalisation name written into saved indexes: a change here must refuse indexes built under the old one. */
export const NORMALISATION = 'datatrove-head:simplify_text+spacy-en-words';

export interface DocWords {
  words: string[];
  /** UTF-16 range of each word in the original text (end exclusive). */
  starts: Int32Array;
  ends: Int32Array;
}

/** Relative [start, end) pairs of the words in one space-free chunk, or null when the chunk is one word. */
export type Split = Int32Array | null;
const cache = new Map<string, Split>();
const CACHE_MAX = 200_000;

/**
 * spaCy splits on whitespace first and tokenizes each piece on its own, so tokenizing the simplified text's
 * space-separated chunks one at a time (cached: web text repeats its words) gives the same words as the whole.
 */
export function splitChunk(chunk: string): Split {
  let s = cache.get(chunk);
  if (s !== undefined) return s;
  const { starts, ends } = tokenizerFor('eng').tokenize(chunk);
  const pairs: number[] = [];
  for (let i = 0; i < starts.length; i++) if (!isPySpace(chunk.charCodeAt(starts[i] as number))) pairs.push(starts[i] as number, ends[i] as number);
  s = pairs.length === 2 && pairs[0] === 0 && pairs[1] === chunk.length ? null : Int32Array.from(pairs);
  if (cache.size >= CACHE_MAX) cache.clear();
  // A copy: the chunk is a slice of the document's text, which the key would keep alive (text/own-copy.ts).
  cache.set(ownCopy(chunk), s);
  return s;
}

export function decontWords(text: string): DocWords {
  const t = simplifyTracked(text);
  const s = t.text;
  const words: string[] = [];
  // Words are separated by at least one space, so there are at most ⌈len/2⌉ of them.
  const starts = new Int32Array((s.length + 1) >> 1);
  const ends = new Int32Array((s.length + 1) >> 1);
  for (let a = 0; a < s.length; ) {
    let b = s.indexOf(' ', a);
    if (b < 0) b = s.length;
    if (b > a) {
      const chunk = s.slice(a, b);
      const split = splitChunk(chunk);
      if (split === null) {
        starts[words.length] = t.from[a] as number;
        ends[words.length] = t.to[b - 1] as number;
        words.push(chunk);
      } else {
        for (let k = 0; k < split.length; k += 2) {
          const x = a + (split[k] as number);
          const y = a + (split[k + 1] as number);
          starts[words.length] = t.from[x] as number;
          ends[words.length] = t.to[y - 1] as number;
          words.push(s.slice(x, y));
        }
      }
    }
    a = b + 1;
  }
  return { words, starts: starts.subarray(0, words.length), ends: ends.subarray(0, words.length) };
}
