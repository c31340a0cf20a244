// Type-feedback priming: each Dolma tagger's hot paths run over small texts taking every branch before the first document.
import type { TaggerContext } from '../../types.js';

/**
 * Small texts that between them take every branch of gopher_v1, c4_v2 and the PII scanners: ASCII and
 * two-byte strings, every whitespace kind, surrogate pairs and lone halves, a word past the median's
 * short-length table, repeated words and lines, bullets, ellipses, e-mails, phones, IPs, non-ASCII digits,
 * case-changing lowercasing, tables outgrowing their first size.
 */
export const TEXTS = [
  'The cat sat on the mat, and that was that.\nThe cat sat on the mat, and that was that.\n* a bullet\n- a dash\n\n#tag me@host.org (555) 123-4567, 555.123.4567 at 192.168.0.1?\n  "quoted."\r\nJavaScript lorem ipsum { ass class 2 girls 1 cup\n',
  // Enough distinct words and lines to grow every table and scratch array once.
  Array.from({ length: 70 }, (_, i) => `w${i}`).join('\n'),
  `Ünïcödé wörds — “quoted” 😀 emoji \ud800 lone \udc00 halves\u3000ideographic\u00a0nbsp\x1cfs \u0663\u0664\u0665 \u0663\u0664\u0665 \u0663\u0664\u0665\u0666 ${'w'.repeat(300)} İ Σ \u212Ainky 🖕 wait…\n(x@y.co) @ @a.b me@😀.com\n`,
];

const primed = new Set<string>();

/**
 * Files smaller than this on disk are tagged without priming: priming pays back only once V8 would otherwise compile a
 * tagger's loops more than once. FineWeb's preset over real prose, one pinned core, CPU of the pass primed vs not:
 * 64 KB of text (22 KB gzipped) 0.35 vs 0.27 s, 256 KB (82 KB) 0.55 vs 0.55 s, 1 MB (330 KB) 0.93 vs 1.14 s.
 */
export const PRIME_MIN_INPUT_BYTES = 96 * 1024;

/**
 * Runs `tag` a few times over the priming texts, once per process and name. V8 optimises a hot loop while the
 * first long document is read, with feedback only for the branches that document took; the first later
 * document taking another (non-ASCII text, a surrogate, a long word) deoptimises it and the function is
 * compiled again, several times over a pass. Interpreted runs over small texts (well under a millisecond) give
 * complete feedback first, so each loop is compiled about once: on 4.5 MB of prose, about 0.13 s less CPU per
 * worker process for the Dolma pass. Results are unaffected: the taggers keep no state between documents
 * beyond caches keyed by their input. Skipped while the file being tagged (`ctx.inputBytes`) is small; a later
 * large file in the same process primes then.
 */
export function primeOnce(name: string, tag: (text: string) => unknown, ctx: TaggerContext, texts: readonly string[] = TEXTS): void {
  if (primed.has(name) || (ctx.inputBytes !== undefined && ctx.inputBytes < PRIME_MIN_INPUT_BYTES)) return;
  primed.add(name);
  const parsed = texts.map(asParsed);
  for (let k = 0; k < 2; k++) for (const t of parsed) tag(t);
}

/**
 * `text` as the string JSON.parse makes of a document's text (flat, one- or two-byte; only short ones internalized).
 * V8 keeps a map per string representation, and each `text.length` or `charCodeAt` site in a tagger records the maps
 * it saw: past four it goes megamorphic and every call pays a generic lookup. Literals are internalized and `repeat`
 * or `+` make cons strings, so unconverted priming texts alone pushed the hot sites past four (7 % of the FineWeb
 * pass's CPU in megamorphic loads).
 */
export function asParsed(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
