// The words DataTrove's n-gram decontamination compares (spaCy-en tokens of simplify_text), each with its range in the original text.
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
type Split = Int32Array | null;
const cache = new Map<string, Split>();
const CACHE_MAX = 200_000;

/**
 * spaCy splits on whitespace first and tokenizes each piece on its own, so tokenizing the simplified text's
 * space-separated chunks one at a time (cached: web text repeats its words) gives the same words as the whole.
 */
function splitChunk(chunk: string): Split {
  let s = cache.get(chunk);
  if (s !== undefined) return s;
  const { starts, ends } = tokenizerFor('eng').tokenize(chunk);
  const pairs: number[] = [];
  for (let i = 0; i < starts.length; i++) if (!isPySpace(chunk.charCodeAt(starts[i] as number))) pairs.push(starts[i] as number, ends[i] as number);
  s = pairs.length === 2 && pairs[0] === 0 && pairs[1] === chunk.length ? null : Int32Array.from(pairs);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(chunk, s);
  return s;
}

export function decontWords(text: string): DocWords {
  const t = simplifyTracked(text);
  const s = t.text;
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const push = (a: number, b: number): void => {
    words.push(s.slice(a, b));
    starts.push(t.from[a] as number);
    ends.push(t.to[b - 1] as number);
  };
  for (let a = 0; a < s.length; ) {
    let b = s.indexOf(' ', a);
    if (b < 0) b = s.length;
    if (b > a) {
      const split = splitChunk(s.slice(a, b));
      if (split === null) push(a, b);
      else for (let k = 0; k < split.length; k += 2) push(a + (split[k] as number), a + (split[k + 1] as number));
    }
    a = b + 1;
  }
  return { words, starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}
