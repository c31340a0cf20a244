// One document as the taggers of a pass see it: tokens, words and other derived forms computed once, lazily, and shared.
import { splitIntoWordsNltk } from '../text/nltk/words.js';
import { isPySpace } from '../text/spacy/tokenizer.js';
import { tokenizerFor, type TokenOffsets } from '../text/words.js';

/**
 * Derived forms of one text, each computed on first use. Taggers reach it with `viewOf(text)` rather than through the
 * runtime, so a tagger run alone builds its own view and gets the same values; in a pass, the second tagger to ask for
 * the spaCy tokens of a document gets the first one's. Values are shared: callers must not mutate what they get.
 */
export class DocView {
  readonly #memo = new Map<string, unknown>();

  constructor(readonly text: string) {}

  /** The value under `key`, made once per document. Keys name the form and every option it depends on. */
  get<T>(key: string, make: (text: string) => T): T {
    let v = this.#memo.get(key) as T | undefined;
    if (v === undefined && !this.#memo.has(key)) {
      v = make(this.text);
      this.#memo.set(key, v);
    }
    return v as T;
  }

  /** spaCy `blank(<lang>)` tokens of the whole text, whitespace tokens included (UTF-16 offsets). */
  spacyTokens(language: string): TokenOffsets {
    return this.get(`spacy:${language}`, (t) => tokenizerFor(language).tokenize(t));
  }

  /** DataTrove `split_into_words`: spaCy's non-whitespace tokens at HEAD, NLTK's word_tokenize for v0.2.0. */
  words(language: string, profile: 'head' | 'fineweb-2024'): readonly string[] {
    if (profile !== 'head') return this.get('nltk-words', splitIntoWordsNltk);
    return this.get(`words:${language}`, (t) => {
      const { starts, ends } = this.spacyTokens(language);
      const words: string[] = [];
      for (let i = 0; i < starts.length; i++) {
        const a = starts[i] as number;
        if (!isPySpace(t.charCodeAt(a))) words.push(t.slice(a, ends[i]));
      }
      return words;
    });
  }
}

/**
 * The views of the last few texts, besides the pinned ones. A tagger run on its own, or one document at a time, hands
 * every tagger the same document, and a tagger that derives a text from it (FineWeb's quality filter reads the text C4
 * leaves) asks for a second view; four slots cover both with room.
 */
const recent: DocView[] = [];
const SLOTS = 4;

/**
 * The views of the group of documents tag/file.ts is tagging tagger by tagger (pinViews), until it releases them: the
 * last tagger reads what the first computed for every document of the group.
 */
let pinned: Map<string, DocView> | null = null;

/** Keeps a view for each of `texts` until releaseViews: each tagger runs over them all in turn. */
export function pinViews(texts: readonly string[]): void {
  pinned = new Map();
  for (const t of texts) if (!pinned.has(t)) pinned.set(t, new DocView(t));
}

export function releaseViews(): void {
  pinned = null;
}

export function viewOf(text: string): DocView {
  const p = pinned?.get(text);
  if (p !== undefined) return p;
  for (const v of recent) if (v.text === text) return v;
  const v = new DocView(text);
  if (recent.unshift(v) > SLOTS) recent.pop();
  return v;
}
