// Approximation of the FineWeb-era (DataTrove v0.2.0) tokenizer: nltk.word_tokenize = punkt sentences + Treebank rules.
import { PY_WS_CHARS, pyStrip } from '../python.js';

const S = `[${PY_WS_CHARS}]`;
const W = '[\\p{L}\\p{N}_]';
/** Python `$` without MULTILINE also matches before one final newline. */
const END = '(?=\\n?$)';

type Rule = [RegExp, string];
const r = (src: string, flags = ''): RegExp => new RegExp(src, `gu${flags}`);

/** NLTKWordTokenizer (NLTK 3.8) rules, in order; `\b`/`\w`/`\s`/`\d` rewritten with Python's Unicode meanings. */
const STARTING_QUOTES: Rule[] = [
  [r('([«“‘„]|[`]+)'), ' $1 '],
  [r('^"'), '``'],
  [r('(``)'), ' $1 '],
  [r('([ ([{<])("|\'{2})'), '$1 `` '],
  [r(`(')(?!re|ve|ll|m|t|s|d|n)(${W})(?!${W})`, 'i'), '$1 $2'],
];
const PUNCTUATION: Rule[] = [
  [r(`([^.])(\\.)([\\])}>"'»”’ ]*)${S}*${END}`), '$1 $2 $3 '],
  [r('([:,])([^\\p{Nd}])'), ' $1 $2'],
  [r(`([:,])${END}`), ' $1 '],
  [r('\\.{2,}'), ' $& '],
  [r('[;@#$%&]'), ' $& '],
  [r(`([^.])(\\.)([\\])}>"']*)${S}*${END}`), '$1 $2$3 '],
  [r('[?!]'), ' $& '],
  [r("([^'])' "), "$1 ' "],
  [r('[*]'), ' $& '],
];
const PARENS: Rule = [r('[\\][(){}<>]'), ' $& '];
const DOUBLE_DASH: Rule = [r('--'), ' -- '];
const ENDING_QUOTES: Rule[] = [
  [r('([»”’])'), ' $1 '],
  [r("''"), " '' "],
  [r('"'), " '' "],
  [r(`([^' ])('[sS]|'[mM]|'[dD]|') `), '$1 $2 '],
  [r(`([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) `), '$1 $2 '],
];
const B = `(?<!${W})(?=${W})`;
const E = `(?<=${W})(?!${W})`;
const CONTRACTIONS: Rule[] = [
  ...['(can)(not)', "(d)('ye)", '(gim)(me)', '(gon)(na)', '(got)(ta)', '(lem)(me)', "(more)('n)"].map(
    (c): Rule => [r(`${B}${c}${E}`, 'i'), ' $1 $2 '],
  ),
  [r(`${B}(wan)(na)(?=${S})`, 'i'), ' $1 $2 '],
  [r(` ('t)(is)${E}`, 'i'), ' $1 $2 '],
  [r(` ('t)(was)${E}`, 'i'), ' $1 $2 '],
];

/** `NLTKWordTokenizer().tokenize(sentence)`. */
export function treebankTokenize(sentence: string): string[] {
  let t = sentence;
  for (const [re, sub] of STARTING_QUOTES) t = t.replace(re, sub);
  for (const [re, sub] of PUNCTUATION) t = t.replace(re, sub);
  t = t.replace(PARENS[0], PARENS[1]).replace(DOUBLE_DASH[0], DOUBLE_DASH[1]);
  t = ` ${t} `;
  for (const [re, sub] of ENDING_QUOTES) t = t.replace(re, sub);
  for (const [re, sub] of CONTRACTIONS) t = t.replace(re, sub);
  return t.split(new RegExp(`${S}+`, 'u')).filter((w) => w.length > 0);
}

/** Abbreviations punkt's English model knows often enough that a following capital does not start a sentence. */
const ABBREV = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'st', 'jr', 'sr', 'vs', 'etc', 'e.g', 'i.e', 'inc', 'ltd', 'co', 'corp', 'no', 'fig', 'u.s', 'jan', 'feb', 'aug', 'sept', 'oct', 'nov', 'dec']);
const BOUNDARY = new RegExp(`([.?!]+)(['"”’)\\]]*)(${S}+)(?=["'“‘(\\[]?[\\p{Lu}\\p{Nd}])`, 'gu');

/**
 * Sentence split standing in for punkt (whose trained English parameters are not available offline): break after
 * `.`/`?`/`!` (plus closing quotes) followed by whitespace and a capital or digit, unless the word is a known
 * abbreviation or a single letter. Pieces are stripped and empty ones dropped, like `sent_tokenize`.
 */
export function sentTokenizeNltk(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  BOUNDARY.lastIndex = 0;
  for (let m = BOUNDARY.exec(text); m !== null; m = BOUNDARY.exec(text)) {
    const punct = m[1] as string;
    if (punct === '.') {
      const before = text.slice(Math.max(start, m.index - 12), m.index);
      const word = (/([\p{L}.]+)$/u.exec(before)?.[1] ?? '').toLowerCase();
      if (ABBREV.has(word) || /^\p{L}$/u.test(word)) continue;
    }
    const end = m.index + punct.length + (m[2] as string).length;
    out.push(text.slice(start, end));
    start = end + (m[3] as string).length;
  }
  out.push(text.slice(start));
  return out.map(pyStrip).filter((x) => x.length > 0);
}

/** v0.2.0 `NLTKTokenizer("english").word_tokenize`: Treebank tokens of each sentence, stripped, empties dropped. */
export function splitIntoWordsNltk(text: string): string[] {
  const words: string[] = [];
  for (const sentence of sentTokenizeNltk(text)) {
    for (const w of treebankTokenize(sentence)) {
      const s = pyStrip(w);
      if (s.length > 0) words.push(s);
    }
  }
  return words;
}
