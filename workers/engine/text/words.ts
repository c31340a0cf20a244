// Word tokens as DataTrove computes them: HEAD `split_into_words` = spaCy `blank("en")` tokens, stripped, empties dropped.
import { AssayError } from '../errors.js';
import { SpacyTokenizer, isPySpace, type TokenOffsets } from './spacy/tokenizer.js';

export type { TokenOffsets } from './spacy/tokenizer.js';

/** Language codes DataTrove's `tokenizer_assignment.csv` maps to spaCy `en`; `xx` is spaCy's multi-language blank. */
const SPACY_LANG: Record<string, 'en' | 'xx'> = { eng: 'en', en: 'en', eng_Latn: 'en', en_Latn: 'en', xx: 'xx' };
const tokenizers = new Map<'en' | 'xx', SpacyTokenizer>();

/** The shared spaCy tokenizer for a DataTrove language code (`CONFIG` error when it has none). */
export function tokenizerFor(language: string): SpacyTokenizer {
  const lang = SPACY_LANG[language];
  if (lang === undefined) {
    throw new AssayError('CONFIG', `no word tokenizer for language "${language}" (supported: ${Object.keys(SPACY_LANG).join(', ')})`, {
      field: 'language',
    });
  }
  let tok = tokenizers.get(lang);
  if (tok === undefined) {
    tok = new SpacyTokenizer(lang);
    tokenizers.set(lang, tok);
  }
  return tok;
}

/** Every spaCy token of `text`, whitespace tokens included (UTF-16 offsets). Linear time. */
export function spacyTokenOffsets(text: string, language = 'eng'): TokenOffsets {
  return tokenizerFor(language).tokenize(text);
}

/**
 * DataTrove `split_into_words(text, language)` at HEAD: `[t.text for t in nlp(text)]`, each stripped, empty ones
 * dropped. spaCy never puts whitespace inside a non-whitespace token, so this is the non-whitespace tokens.
 */
export function splitIntoWords(text: string, language = 'eng'): string[] {
  const { starts, ends } = tokenizerFor(language).tokenize(text);
  const words: string[] = [];
  for (let i = 0; i < starts.length; i++) {
    const a = starts[i] as number;
    if (!isPySpace(text.charCodeAt(a))) words.push(text.slice(a, ends[i]));
  }
  return words;
}

export { splitIntoWordsNltk } from './nltk/words.js';
