// The tokenizer's fast path (plainChunk, the chunk cache) against its general path, on adversarial and random text.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../native-addon.js';
import { englishExceptions } from './exceptions.js';
import { generalPathData } from './affixes.js';
import { OffsetBuffer } from './offsets.js';
import { ALPHA, CLOSE, DOT_AFTER, INNER, OPEN, PLAIN, SPACE, UNIT_CLASS } from './plain.js';
import { SpacyTokenizer, isPySpace } from './tokenizer.js';

/** Tokens by the general path alone: spaCy's whitespace split, then each chunk split in full (`chunkLengths`). */
function reference(tok: SpacyTokenizer, text: string): string[] {
  const out: string[] = [];
  const chunk = (a: number, b: number, ws: boolean) => {
    if (ws) return void out.push(text.slice(a, b));
    let at = a;
    for (const len of tok.chunkLengths(text.slice(a, b))) out.push(text.slice(at, (at += len)));
  };
  if (text.length === 0) return out;
  let inWs = isPySpace(text.charCodeAt(0));
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isPySpace(c) === inWs) continue;
    if (start < i) chunk(start, i, inWs);
    start = c === 0x20 ? i + 1 : i;
    inWs = !inWs;
  }
  if (start < text.length) chunk(start, text.length, inWs);
  return out;
}

function tokens(tok: SpacyTokenizer, text: string): string[] {
  const { starts, ends } = tok.tokenize(text);
  return Array.from(starts, (s, k) => text.slice(s, ends[k]));
}

/** Each language: a tokenizer for the fast path, one whose cache only the general path fills. */
const pairs = (['en', 'xx'] as const).map((lang) => ({ lang, fast: new SpacyTokenizer(lang), plain: new SpacyTokenizer(lang) }));
const agree = (texts: string[]) => {
  for (const { lang, fast, plain } of pairs) {
    for (const t of texts) {
      const got = tokens(fast, t);
      const want = reference(plain, t);
      // The first difference and a few tokens around it: the texts are long.
      let k = 0;
      while (k < got.length && got[k] === want[k]) k++;
      if (k < got.length || k < want.length) expect(got.slice(Math.max(0, k - 3), k + 3), lang).toEqual(want.slice(Math.max(0, k - 3), k + 3));
    }
  }
};

let seed = 11;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const pick = <T,>(xs: readonly T[]): T => xs[rnd(xs.length)] as T;

const SPECIALS = [...englishExceptions().keys()].filter((k) => !/\s/.test(k));
/** Affix units, quotes and apostrophes, dots, digits, letters of several kinds, astral and lone surrogate units. */
const PIECES = [
  ...'aZeSsxé߃Σ_#&@%²'.split(''), ...'()[]{}"“”‘’\'«»,;:!?.…-–—~/*+^<>=|$€§°'.split(''), ...'0129'.split(''),
  'word', 'Word', 'ca', 'n\'t', '\'s', '’S', 'US$', 'C$', 'km', '😀', '𝐀', '\ud800', '\udc00', 'ಠ', '¯', '..', 'http://x.io',
];
const SPACES = [' ', ' ', ' ', '  ', '\n', '\r\n', '\t', '\u00a0', '\u3000', '\u2009 '];

describe('spaCy tokenizer fast path', () => {
  it('handles the empty text and whitespace-only texts', () => {
    agree(['', ' ', '  ', '\n', ' \r\n ', '\u3000', 'a', ' a', 'a ', ' a ', 'a  b', 'a \n b', '\t\ta\t']);
  });

  it('splits common chunk shapes like the general path', () => {
    agree([
      'word, word. (word) "word" word; word: word! word? word), word). "word", (word.) word.) word)"',
      "O'Neil's f(x) a)b a_b x.y Mr. Mr, mr. A. U.S. e.g. e.g., (e.g.) 3pm 10km $5 US$5 C++ :) hello:) word):",
      "don't can't cannot Cannot gonna dont im Ill ill its It's it’s lovin' doin' 'em 'bout ‘s ‘S y'all",
      '…word word… word…. word…… (a…… «word» ¡word! ¿word? word—word word–word a--b a~b 1-2 a/b a:b a<b a=b a,b a.B',
      'Σ ς ΣΑΣ é. ü. ä. ß. Éé. İ. ﬁ. word° 5°C. 5°F. a²',
      'XD xD XDD :-) (: ;) <3 </3 ^_^ ಠ_ಠ ¯\\(ツ)/¯ (╯°□°）╯︵┻━┻',
      "well-known well-known's (well-known), a-b-c a--b a- -a é-ü a-1 1-a gonna-be em-dash can-not x-'s a-'s a-s's",
      "John's John's. JOHN'S. John’s John's), (John's it's It's that's-it e-mail's 's ’s 'S o'clock-ish ma'am's",
      // A second `'s` under the first is a suffix too: the fast path once kept `ab's` whole.
      "ab's's ab's's. (ab's's) a's's he'S's John’s’s x-y's's ab's'ss s's's",
      'Mr.-x C++-x US$-x x-US$ x-ಠ ಠ-ಠ a_-b a-_b a)-b (a-b a-b" a-b-- ß-Σ İ-ı a‐b a−b',
      '1990 1990s 1990\'s (1990), 5km 5 km 10% $5 $5. #5 +5 5+ 1-2 1–2 5— 3pm 3.5 3, 3. 3.) 12am 1am. ٣ 5² 5m. 5£ £5',
    ]);
  });

  it('agrees on every special case wrapped in affixes', () => {
    const wraps: Array<[string, string]> = [['', ''], ['(', ')'], ['"', '".'], ['', ','], ['', '.'], ['', '),'], ['«', '»;'], ['', '):']];
    agree(SPECIALS.map((k) => wraps.map(([p, s]) => `${p}${k}${s} x${k} ${k}s`).join(' ')));
  });

  it('agrees on BMP units in the places the fast path looks at', () => {
    const texts: string[] = [];
    // Every unit below the CJK blocks and in the compatibility forms (where the punctuation and symbols are), a
    // sample of the rest (letters all alike to the rules).
    for (let c = 0; c < 0x10000; c++) {
      const u = String.fromCharCode(c);
      if (isPySpace(c) || (c >= 0x3400 && c < 0xf900 && c % 17 !== 0)) continue;
      texts.push(`${u} a${u} ${u}a a${u}b (a${u} a${u}) a${u}. a)${u} ${u}ab. (ab${u} ab.${u} ${u}-a a-${u} a-${u}b a${u}'s a'${u}`);
    }
    // Batched: one long text per 512 units, so the test takes seconds, not minutes.
    for (let k = 0; k < texts.length; k += 512) agree([texts.slice(k, k + 512).join(' ')]);
  });

  it('agrees on random text of adversarial pieces', () => {
    const texts: string[] = [];
    for (let k = 0; k < 3000; k++) {
      const parts: string[] = [];
      for (let w = 1 + rnd(12); w > 0; w--) {
        let chunk = '';
        for (let p = 1 + rnd(5); p > 0; p--) chunk += rnd(6) === 0 ? pick(SPECIALS) : pick(PIECES);
        parts.push(chunk, pick(SPACES));
      }
      texts.push(parts.join(''));
    }
    agree(texts);
  });

  it('agrees on very long chunks', () => {
    agree(['a'.repeat(5000), `(${'ab'.repeat(3000)}).`, `${'x_'.repeat(2000)}y`, `${'a.'.repeat(1000)}`, 'é'.repeat(70) + ',']);
  });

  it('stays linear on chunks of many tokens', () => {
    const tok = new SpacyTokenizer('en');
    const shapes = [(n: number) => '😊'.repeat(n), (n: number) => `${'ab-'.repeat(n / 3)}a`, (n: number) => `(${'a'.repeat(n)}),`, (n: number) => '.,'.repeat(n / 2)];
    const time = (n: number) => {
      const t = performance.now();
      for (const shape of shapes) tok.tokenize(shape(n));
      return performance.now() - t;
    };
    time(2_000);
    // Ten times the text: about ten times the time if linear, a hundred if quadratic.
    expect(time(300_000) / Math.max(time(30_000), 1)).toBeLessThan(40);
  });
});

/** The chunks the scan pass marks for the JavaScript's general path, by the C addon's scan or scanJs. */
function markedChunks(tok: SpacyTokenizer, text: string, js: boolean): number {
  const out = new OffsetBuffer(4);
  if (js) tok.scanJs(text, out);
  else (tok as unknown as { scan(t: string, o: OffsetBuffer, s: OffsetBuffer): boolean }).scan(text, out, new OffsetBuffer(4));
  let n = 0;
  for (let k = 0; k < out.length; k++) if ((out.ends[k] as number) < 0) n++;
  return n;
}

/**
 * The fast path's entries (marked chunks as ~end), by scanJs or by C's plain_chunk alone: a scanner made without the
 * general path's tables, over the tokenizer's own unit classes and hash filters.
 */
function entries(tok: SpacyTokenizer, text: string, js: boolean): { starts: number[]; ends: number[] } {
  const out = new OffsetBuffer(4);
  if (js) tok.scanJs(text, out);
  else {
    const t = tok as unknown as { maxRule: number; hashes: { specials: { slots: Int32Array } }; matcher: { oneToken: { slots: Int32Array } } };
    const addon = nativeAddon()!;
    const bits = Int32Array.of(PLAIN, INNER, OPEN, CLOSE, DOT_AFTER, SPACE, ALPHA, t.maxRule);
    const handle = addon.spacyScanner(UNIT_CLASS, bits, t.hashes.specials.slots, t.matcher.oneToken.slots);
    out.reserve(text.length);
    out.length = addon.spacyScan(handle, text, out.starts, out.ends, new Int32Array(text.length + 1));
  }
  return { starts: Array.from(out.starts.subarray(0, out.length)), ends: Array.from(out.ends.subarray(0, out.length)) };
}

describe.runIf(nativeAddon() !== null)('spaCy tokenizer scan in C (native/spacy.c, native/spacy-general.c)', () => {
  /** The C scan, with the C general path and cache, then the JavaScript's for what C leaves: the JavaScript's general path's tokens. */
  const sameEntries = (texts: string[]) => {
    for (const { lang, fast, plain } of pairs) {
      for (const t of texts) {
        const what = `${lang}: ${JSON.stringify(t.slice(0, 80))}`;
        // C's fast path entry for entry as scanJs's, and the whole C tokenizer's tokens as the general path's.
        expect(entries(fast, t, false), what).toEqual(entries(fast, t, true));
        expect(tokens(fast, t), what).toEqual(reference(plain, t));
      }
    }
  };

  it('settles the chunks the fast path leaves in C, leaves special cases, URLs and astral text to the JavaScript, and caches those once split', () => {
    const settled = "1990s 3.5 (word), 5km $5 US$5 a--b a/b 10% x.y (1-2) word.) «a»; 2.0 1.2.3 1.2.3.4.5 1.22.333.4444 v1.2.3.4.5 a,b 5°C. U.S.A, ¿qué?";
    const left = ["don't", 'e.g.', 'C++', 'http://x.io', 'www.example.com', '10.1.2.3', 'a@b.io', '😀!', 'a\ud800)', ':)'];
    for (const { lang, fast, plain } of pairs) {
      const tok = new SpacyTokenizer(lang);
      expect(markedChunks(tok, settled, true), lang).toBeGreaterThanOrEqual(15);
      expect(markedChunks(tok, settled, false), lang).toBe(0);
      const text = left.join(' ');
      // In English every one of them (`don't`, `e.g.` and `C++` are special cases there, not in `xx`).
      if (lang === 'en') expect(markedChunks(tok, text, false), lang).toBe(markedChunks(tok, text, true));
      else expect(markedChunks(tok, text, false), lang).toBeGreaterThanOrEqual(6);
      // Once tokenized, the JavaScript's lengths are cached in C too: no chunk is marked again.
      expect(tokens(tok, text), lang).toEqual(reference(plain, text));
      expect(markedChunks(tok, text, false), lang).toBe(0);
      expect(tokens(tok, text), lang).toEqual(tokens(fast, text));
    }
  });

  it("gives the JavaScript general path's tokens on adversarial, random and long texts", () => {
    seed = 23;
    const texts = ['', ' ', 'a', ' a ', "'s", "a's", '(a', 'a.', '.a', 'a-', '-a', 'a--b', 'US$', '\ud800', '😀', 'a\u3000b', 'ab'.repeat(4000)];
    for (const k of SPECIALS) texts.push(`${k} (${k}) ${k}s x${k}. ${k}'s`);
    for (let k = 0; k < 3000; k++) {
      let t = '';
      for (let w = 1 + rnd(12); w > 0; w--) {
        for (let p = 1 + rnd(5); p > 0; p--) t += rnd(6) === 0 ? pick(SPECIALS) : pick(PIECES);
        t += pick(SPACES);
      }
      texts.push(t);
    }
    sameEntries(texts);
  });

  it("gives the JavaScript general path's tokens on every BMP unit around plain words", () => {
    const texts: string[] = [];
    for (let c = 0; c < 0x10000; c += 1) {
      const u = String.fromCharCode(c);
      texts.push(`${u} a${u} ${u}a a${u}b (a${u} a${u}) a${u}. ${u}ab. a-${u}b a${u}'s a'${u}`);
    }
    for (let k = 0; k < texts.length; k += 1024) sameEntries([texts.slice(k, k + 1024).join(' ')]);
  });

  it('refuses offset arrays shorter than the text and malformed tables', () => {
    const addon = nativeAddon()!;
    const filter = new Int32Array(16);
    const bits = Int32Array.of(1, 2, 4, 8, 16, 32, 64, 20);
    const handle = addon.spacyScanner(UNIT_CLASS, bits, filter, filter);
    const at = new Int32Array(6);
    expect(addon.spacyScan(handle, 'a b', new Int32Array(3), new Int32Array(3), at)).toBe(2);
    expect(at[0]).toBe(0);
    expect(() => addon.spacyScan(handle, 'a b c', new Int32Array(3), new Int32Array(3), at)).toThrow(/room for one entry per unit/);
    expect(() => addon.spacyScan(handle, 'a b c', new Int32Array(5), new Int32Array(5), new Int32Array(5))).toThrow(/room for one entry per unit/);
    expect(() => addon.spacyScanner(new Uint8Array(10), bits, filter, filter)).toThrow(/classes/);
    expect(() => addon.spacyScanner(UNIT_CLASS, Int32Array.of(1, 2, 4), filter, filter)).toThrow(/bits/);
    expect(() => addon.spacyScanner(UNIT_CLASS, bits, new Int32Array(12), filter)).toThrow(/hash filter/);
    expect(() => addon.spacyScanner(UNIT_CLASS, bits, filter, new Int32Array(16).fill(7))).toThrow(/hash filter/);
    const g = generalPathData('en', 20);
    const general = (over: Partial<typeof g & { texts: Int32Array }>) => {
      const a = { ...g, texts: filter, ...over };
      return () => addon.spacyScanner(UNIT_CLASS, bits, filter, filter, a.tables, a.params, a.texts, a.lists);
    };
    expect(general({})).not.toThrow();
    expect(general({ tables: g.tables.slice(1) })).toThrow(/general path's tables/);
    expect(general({ tables: [new Uint8Array(10), ...g.tables.slice(1)] })).toThrow(/general path's tables/);
    expect(general({ params: Int32Array.of(1, 0, 20) })).toThrow(/general path's tables/);
    expect(general({ texts: new Int32Array(16).fill(7) })).toThrow(/general path's tables/);
    expect(general({ lists: g.lists.slice(1) })).toThrow(/general path's tables/);
    expect(general({ lists: ['a  b', ...g.lists.slice(1)] })).toThrow(/general path's tables/);
    expect(general({ lists: ['😀', ...g.lists.slice(1)] })).toThrow(/general path's tables/);
  });

  it('expands marked chunks only with lengths that tile them, into arrays long enough', () => {
    const addon = nativeAddon()!;
    // Entries: [0, 2) and the marked chunk [3, 7).
    const starts = Int32Array.of(0, 3);
    const ends = Int32Array.of(2, ~7);
    const out = () => [new Int32Array(3), new Int32Array(3)] as const;
    const [s, e] = out();
    expect(addon.spacyExpand(starts, ends, 2, Int32Array.of(2, 1, 3), s, e)).toBe(3);
    expect([Array.from(s), Array.from(e)]).toEqual([[0, 3, 4], [2, 4, 7]]);
    expect(() => addon.spacyExpand(starts, ends, 2, Int32Array.of(2, 1, 2), ...out())).toThrow(/do not tile/);
    expect(() => addon.spacyExpand(starts, ends, 2, Int32Array.of(2, 1, 9), ...out())).toThrow(/do not tile/);
    expect(() => addon.spacyExpand(starts, ends, 2, Int32Array.of(2, 1, -1), ...out())).toThrow(/do not tile/);
    expect(() => addon.spacyExpand(starts, ends, 2, Int32Array.of(5, 1), ...out())).toThrow(/lengths too short/);
    expect(() => addon.spacyExpand(starts, ends, 2, Int32Array.of(4, 1, 1, 1, 1), new Int32Array(3), new Int32Array(3))).toThrow(/output too short/);
    expect(() => addon.spacyExpand(starts, ends, 3, Int32Array.of(2, 1, 3), ...out())).toThrow(/entries/);
  });
});

describe('the special-case matcher table', () => {
  it.each(['en', 'xx'] as const)('matcher-data.ts holds what the %s tokenizer finds (else run `node --import tsx scripts/gen-spacy-matcher.ts`)', async (lang) => {
    const { MATCHER_PATTERNS } = await import('./matcher-data.js');
    const found = new SpacyTokenizer(lang).findPatterns();
    expect(found.length).toBeGreaterThan(100);
    expect(MATCHER_PATTERNS[lang]).toEqual(found);
  });

  it('the generator writes the file as it is', async () => {
    const { readFileSync } = await import('node:fs');
    const { matcherDataSource } = await import('../../../../scripts/gen-spacy-matcher.js');
    expect(readFileSync(new URL('./matcher-data.ts', import.meta.url), 'utf8')).toBe(matcherDataSource());
  });
});
