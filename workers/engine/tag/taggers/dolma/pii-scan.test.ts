// The linear PII scanners and the fast tagger's paragraph walk against Dolma's regexes run by a backtracking engine.
import { describe, expect, it } from 'vitest';
import { piiRegexWithCountsFastV2 } from './pii.js';
import { findEmails, findIps, findPhones, nextDigit } from './pii-scan.js';
import { containsDeadUrl } from './pii-url.js';
import { doc, PY_WS_CLASS, randomText, rng } from './test-helpers.js';
import { splitParagraphs } from './text.js';

const S = `[${PY_WS_CLASS}]`;
const NS = PY_WS_CLASS;
const EMAIL_RE = new RegExp(`[.${NS}@,?!;:)(]*([^${NS}@]+@[^${NS}@,?!;:)(]+?)[.${NS}@,?!;:)(]?${S}`, 'gu');
const PHONE_RE = new RegExp(`${S}+\\(?(\\p{Nd}{3})\\)?[-\\. ]*(\\p{Nd}{3})[-. ]?(\\p{Nd}{4})`, 'gu');
// Python's (?i) [a-z] also takes İ and ı; the generated texts avoid those two, where JS differs.
const URL_RE = new RegExp(
  `\\x08((?:https?://|www\\p{Nd}{0,3}[.]|[a-z0-9.\\-]+[.][a-z]{2,4}/)(?:[^${NS}()<>]+|\\(([^${NS}()<>]+|(\\([^${NS}()<>]+\\)))*\\))+(?:\\(([^${NS}()<>]+|(\\([^${NS}()<>]+\\)))*\\)|[^${NS}\`!()\\[\\]{};:'".,<>?«»“”‘’]))`,
  'iu',
);

const matches = (re: RegExp, text: string, from = 0, to = text.length) =>
  [...text.slice(from, to).matchAll(re)].map((m) => [from + m.index, from + m.index + m[0].length]);
const spans = (found: { start: number; end: number }[]) => found.map((m) => [m.start, m.end]);

describe('e-mail scanner', () => {
  it('agrees with the regex on random texts', () => {
    const next = rng(1);
    const alphabets = [
      ['a', 'b', '@', '.', ' ', ',', '(', ')', '\n', 'x.y', '\u3000', '?', '😀'],
      ['a', '@', '.', ' ', '.@', '@.', 'b.c', ',', ')'],
      ['a', '@', '.', ' '],
    ];
    for (let k = 0; k < 9000; k++) {
      const text = randomText(next, alphabets[k % 3]!, Math.floor(next() * 40));
      expect(spans(findEmails(text)), JSON.stringify(text)).toEqual(matches(EMAIL_RE, text));
    }
  });

  it('respects the [from, to) window like a search on the slice', () => {
    const text = 'x a@b.com y\nz c@d.org\nw';
    expect(spans(findEmails(text, 12, 22))).toEqual(matches(EMAIL_RE, text, 12, 22));
    expect(spans(findEmails(text, 12, 22))).toEqual([[13, 22]]);
  });

  it('group 1 is the address', () => {
    expect(findEmails('Mail: (me@host.org). now')).toEqual([]); // ")" then "." then no whitespace
    const [m] = findEmails('Mail: (me@host.org) now');
    expect(m).toEqual({ start: 4, end: 20, groupStart: 7, groupEnd: 18 }); // leftmost: from the ":"
  });
});

describe('phone scanner', () => {
  it('agrees with the regex on random texts', () => {
    const next = rng(2);
    const alphabet = ['1', '2', '9', ' ', ' ', '-', '.', '(', ')', '\n', 'a', '٣', '𝟙'];
    for (let k = 0; k < 5000; k++) {
      const text = randomText(next, alphabet, Math.floor(next() * 40));
      expect(spans(findPhones(text)), JSON.stringify(text)).toEqual(matches(PHONE_RE, text));
      const from = Math.floor(next() * text.length);
      expect(spans(findPhones(text, from)), JSON.stringify([text, from])).toEqual(matches(PHONE_RE, text, from));
    }
  });
});

describe('IP scanner', () => {
  it('finds dotted quads leftmost-first', () => {
    expect(spans(findIps('at 192.168.0.1 and 256.1.1.1.9'))).toEqual([[3, 14], [20, 28]]);
  });
});

describe("pii_regex_v1's URL check (backspace-anchored)", () => {
  it('agrees with the regex on random texts', () => {
    const next = rng(3);
    const alphabet = ['\b', 'http://', 'www.', 'www1.', 'a', 'b.com/', '.org/', '(', ')', 'x', '.', '!', ' ', '<', 'K', 'ſ', '/'];
    for (let k = 0; k < 5000; k++) {
      const text = randomText(next, alphabet, Math.floor(next() * 12));
      expect(containsDeadUrl(text), JSON.stringify(text)).toBe(URL_RE.test(text));
    }
  });

  it('plain URLs do not count, only after a backspace', () => {
    expect(containsDeadUrl('see https://example.com/page now')).toBe(false);
    expect(containsDeadUrl('see \bhttps://example.com/page now')).toBe(true);
  });
});

describe('digit search', () => {
  it('finds what a /\\p{Nd}/gu search from the same offset finds, surrogate halves included', () => {
    const next = rng(4);
    const alphabet = ['1', 'a', ' ', '٣', '𝟙', '😀', '\ud835', '\udfd9', '\n', 'é', '\u0660', '\u0966'];
    for (let k = 0; k < 3000; k++) {
      const text = randomText(next, alphabet, Math.floor(next() * 30));
      const from = Math.floor(next() * (text.length + 1));
      const re = /\p{Nd}/gu;
      re.lastIndex = from;
      const m = re.exec(text);
      // A search starting inside a pair backs up to the pair: a digit found before `from` counts as none after it.
      const want = m === null ? -1 : m.index < from ? (re.lastIndex = m.index + 2, re.exec(text)?.index ?? -1) : m.index;
      expect(nextDigit(text, from), JSON.stringify([text, from])).toBe(want);
    }
  });
});

/** FastPiiRegex written plainly: regex finditer over each non-blank paragraph, in paragraph order. */
function fastReference(text: string): [string, number, number][] {
  const out: [string, number, number][] = [];
  if ((text.match(/\?/g) ?? []).length > 10_000) return out;
  const ipRe = /(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)/g;
  for (const p of splitParagraphs(text)) {
    const para = text.slice(p.start, p.end);
    if (para.includes('@')) {
      for (const m of para.matchAll(EMAIL_RE)) {
        const [local, domain] = m[1]!.split('@');
        if (local!.trim() !== '(' && domain!.includes('.')) out.push(['EMAIL_ADDRESS', p.start + m.index, p.start + m.index + m[0].length]);
      }
    }
    if (/\p{Nd}/u.test(para)) for (const m of para.matchAll(PHONE_RE)) out.push(['PHONE_NUMBER', p.start + m.index, p.start + m.index + m[0].length]);
    for (const m of para.matchAll(ipRe)) out.push(['IP_ADDRESS', p.start + m.index, p.start + m.index + m[0].length]);
  }
  return out;
}

describe('pii_regex_with_counts_fast_v2 paragraphs', () => {
  it('visits the paragraphs a plain per-paragraph search would, in order', async () => {
    const tagger = await piiRegexWithCountsFastV2.create({}, { seed: 1, cwd: '.' });
    const next = rng(6);
    const alphabet = ['1', '2', '9', ' ', ' ', '-', '.', '(', ')', '\n', '\n\n', ' \n', 'a', '@', 'b.c', '٣', '𝟙', '\ud835', '192.168.0.1', '555 123 4567', 'x@y.org '];
    for (let k = 0; k < 3000; k++) {
      const text = randomText(next, alphabet, Math.floor(next() * 30));
      const got = tagger.tag(doc(text)) as { start: number; end: number; type: string }[];
      expect(got.filter((s) => !s.type.startsWith('doc')).map((s) => [s.type, s.start, s.end]), JSON.stringify(text)).toEqual(fastReference(text));
    }
  });
});
