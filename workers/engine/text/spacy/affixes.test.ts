// The hand-written prefix/suffix/URL matchers against regexes built straight from spaCy's rule lists.
import { describe, expect, it } from 'vitest';
import { PY_WS_CHARS } from '../python.js';
import { findPrefix, findSuffix } from './affixes.js';
import { ALPHA_LOWER, ALPHA_UPPER, ICONS, LIST_CURRENCY, LIST_PUNCT, LIST_QUOTES, LIST_UNITS, QUOTE_CHARS } from './char-classes.js';
import { urlMatch } from './url.js';

const esc = (w: string) => w.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const alt = (list: string[]) => list.map(esc).join('|');
const ICON = `[${ICONS.toClassBody()}]`;
const DOT_BEHIND = `[0-9${ALPHA_LOWER.toClassBody()}%²\\-+${[...LIST_PUNCT.join(''), '|', '(', '?', ':', ')'].map(esc).join('')}${QUOTE_CHARS.toClassBody()}]`;

/** `compile_prefix_regex(TOKENIZER_PREFIXES)`: `^p1|^p2|…` — the first alternative that matches at 0 wins. */
const PREFIX = new RegExp(
  ['§', '%', '=', '—', '–'].map(esc).concat(['\\+(?![0-9])', alt(LIST_PUNCT), '\\.\\.+', '…', alt(LIST_QUOTES), alt(LIST_CURRENCY), ICON])
    .map((p) => `^(?:${p})`)
    .join('|'),
  'u',
);
/** `compile_suffix_regex(TOKENIZER_SUFFIXES)`: `s1$|s2$|…`, searched (leftmost start wins). */
const SUFFIX = new RegExp(
  [
    alt(LIST_PUNCT), '\\.\\.+', '…', alt(LIST_QUOTES), ICON, "'s", "'S", '’s', '’S', '—', '–',
    '(?<=[0-9])\\+', '(?<=°[FfCcKk])\\.', `(?<=[0-9])(?:${alt(LIST_CURRENCY)})`, `(?<=[0-9])(?:${alt(LIST_UNITS)})`,
    `(?<=${DOT_BEHIND})\\.`, `(?<=[${ALPHA_UPPER.toClassBody()}][${ALPHA_UPPER.toClassBody()}])\\.`,
  ].map((p) => `(?:${p})$`).join('|'),
  'u',
);

let seed = 7;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const randomString = (alphabet: string[], max: number) => Array.from({ length: 1 + rnd(max) }, () => alphabet[rnd(alphabet.length)]).join('');

const AFFIX_ALPHABET = [...'aZ.5°F+$(\'’s…—–,:!?"«)]%ḿ-mkgUS', 'km', 'US$', 'C$', 'мбар', '😀', '¯', '¿', 'é', 'A', 'B'];

describe('spaCy affix rules', () => {
  it('findPrefix equals the prefix regex on random strings', () => {
    for (let k = 0; k < 4000; k++) {
      const s = randomString(AFFIX_ALPHABET, 8);
      const m = PREFIX.exec(s);
      expect(findPrefix(s, 0, s.length), JSON.stringify(s)).toBe(m ? m[0].length : 0);
    }
  });

  it('findSuffix equals the suffix regex on random strings, lookbehinds confined to the searched part', () => {
    for (let k = 0; k < 4000; k++) {
      const s = randomString(AFFIX_ALPHABET, 8);
      const lo = rnd(2) ? 0 : Math.min(s.length, rnd(3));
      const loCp = lo > 0 && /[\udc00-\udfff]/.test(s[lo] ?? '') ? lo + 1 : lo;
      const sub = s.slice(loCp);
      const m = SUFFIX.exec(sub);
      expect(findSuffix(s, loCp, s.length), JSON.stringify([s, loCp])).toBe(m ? m[0].length : 0);
    }
  });
});

const D = '\\p{Nd}';
const HOST = 'A-Za-z0-9\\u00a1-\\uffff';
/** spaCy URL_PATTERN transcribed whole (backtracking; fine on short strings). */
const URL_RE = new RegExp(
  `^(?:(?:[\\p{L}\\p{N}_+\\-.]{2,})://)?(?:[^${PY_WS_CHARS}]+(?::[^${PY_WS_CHARS}]*)?@)?(?:` +
    `(?!(?:10|127)(?:\\.${D}{1,3}){3})(?!(?:169\\.254|192\\.168)(?:\\.${D}{1,3}){2})(?!172\\.(?:1[6-9]|2${D}|3[0-1])(?:\\.${D}{1,3}){2})` +
    `(?:[1-9]${D}?|1${D}${D}|2[01]${D}|22[0-3])(?:\\.(?:1?${D}{1,2}|2[0-4]${D}|25[0-5])){2}(?:\\.(?:[1-9]${D}?|1${D}${D}|2[0-4]${D}|25[0-4]))` +
    `|(?:(?:[${HOST}][${HOST}_-]{0,62})?[${HOST}]\\.)+(?:[${ALPHA_LOWER.toClassBody()}]{2,63}))(?::${D}{2,5})?(?:[/?#][^${PY_WS_CHARS}]*)?$`,
  'u',
);

describe('spaCy URL_MATCH', () => {
  it('matches URLs and rejects private IPs and upper-case TLDs', () => {
    for (const s of ['example.com', 'http://www.example.com/a?b#c', 'user:pw@example.org:8080/x', '8.8.8.8', 'ftp://1.2.3.4/']) {
      expect(urlMatch(s), s).toBe(true);
    }
    for (const s of ['10.0.0.1', '192.168.1.1', 'example.COM', 'well-written', 'a.b', 'x@', '.com']) expect(urlMatch(s), s).toBe(false);
  });

  it('equals the transcribed regex on random URL-like strings (mutated)', () => {
    const pick = (xs: string[]) => xs[rnd(xs.length)] as string;
    let hits = 0;
    for (let k = 0; k < 4000; k++) {
      const labels = Array.from({ length: 1 + rnd(3) }, () => pick(['ab', 'x', '1', 'é', 'a-b', '9', '-a', '10', '192', '168', '254']));
      let s = pick(['', '', 'http://', 'a+b.c://', 'x://']) + pick(['', '', 'u@', 'u:p@', '@', 'a@b@']);
      s += [...labels, pick(['com', 'org', 'Co', 'c', 'x1', '1'])].join('.') + pick(['', '', ':80', ':1', ':123456']) + pick(['', '/', '/a@b', '?q', '#f']);
      if (rnd(3) === 0) {
        const at = rnd(s.length + 1);
        s = s.slice(0, at) + pick(['.', '@', '/', ':', 'A', '']) + s.slice(at + rnd(2));
      }
      const want = URL_RE.test(s);
      if (want) hits++;
      expect(urlMatch(s), JSON.stringify(s)).toBe(want);
    }
    expect(hits).toBeGreaterThan(300); // the generator must exercise both outcomes
  });
});
