// Text for the demo corpus: real English sentences shipped by the npm package nlp-corpus, read through a seeded PRNG.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { NAUGHTY_LINES } from '../tag/taggers/dolma/naughty-words.js';
import { mulberry32 } from '../../../shared/prng.js';

/** mulberry32: small, fast and identical everywhere, so a seed always gives the same corpus. */
export const prng = mulberry32;

export type Rand = () => number;
export const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
export const between = (rand: Rand, min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));

/** nlp-corpus ships 100 files of 1,000 shuffled sentences (fiction, news, reviews, transcripts, …) as builds/doc-N.json. */
const CORPUS_FILES = 100;

function corpusDir(): string {
  const entry = createRequire(import.meta.url).resolve('nlp-corpus');
  return join(dirname(entry), '..', '..', 'builds');
}

const BAD_WORDS = new Set(NAUGHTY_LINES.flatMap((l) => l.split('|')).filter((w) => !w.includes(' ')));
const BAD_PHRASES = new RegExp(
  NAUGHTY_LINES.flatMap((l) => l.split('|'))
    .filter((w) => w.includes(' '))
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

/** The corpus is uncurated ("nsfw slurs" says its README): sentences the C4 bad-word list flags stay out of a demo. */
function presentable(s: string): boolean {
  // Control characters, and anything that would trip the planted-content rules by accident, stay out too.
  if (s.length < 25 || s.length > 400 || [...s].some((c) => c < ' ') || /[#{}]|lorem|javascript|@/i.test(s)) return false;
  const lower = s.toLowerCase();
  if (lower.split(/[^a-z0-9']+/).some((w) => BAD_WORDS.has(w))) return false;
  return !BAD_PHRASES.test(lower);
}

/** Filtered corpus files, loaded once per process (the package's files never change under us). */
const loaded = new Map<number, string[]>();

function corpusFile(i: number): string[] {
  let f = loaded.get(i);
  if (!f) {
    const all = JSON.parse(readFileSync(join(corpusDir(), `doc-${i}.json`), 'utf8')) as string[];
    f = all.map((s) => s.trim()).filter(presentable);
    loaded.set(i, f);
  }
  return f;
}

/** Runs of consecutive sentences from randomly chosen corpus files. */
export class SentenceSource {
  constructor(private readonly rand: Rand) {}

  sentences(n: number): string[] {
    const file = corpusFile(Math.floor(this.rand() * CORPUS_FILES));
    const start = Math.floor(this.rand() * Math.max(1, file.length - n));
    return file.slice(start, start + n);
  }

  /** A paragraph of `min`–`max` sentences. */
  paragraph(min: number, max: number): string {
    return this.sentences(between(this.rand, min, max)).join(' ');
  }
}
