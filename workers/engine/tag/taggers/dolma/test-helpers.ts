// Test helpers: spans as the runtime will write them (code-point offsets, scores rounded to 5 decimals).
import { pyRound } from '../../../text/python.js';
import type { TagDocument, TaggerSpec, TagSpan } from '../../types.js';
import { rng } from '../../../testing.js';

/** [start, end, score, type] with offsets in code points and `round(score, 5)`, as Dolma writes them. */
export type DolmaSpan = [number, number, number, string];

export function toDolma(text: string, spans: readonly TagSpan[]): DolmaSpan[] {
  const cp = (unit: number) => Array.from(text.slice(0, unit)).length;
  return spans.map((s) => [s.codePoints ? s.start : cp(s.start), s.codePoints ? s.end : cp(s.end), pyRound(s.score, 5), s.type]);
}

export const doc = (text: string, extra: Partial<TagDocument> = {}): TagDocument => ({ id: 'd', text, source: '', metadata: {}, record: {}, ...extra });

/** Tag one text with a spec (no options), returning Dolma-form spans. */
export async function tagText(spec: TaggerSpec, text: string, options: Record<string, unknown> = {}): Promise<DolmaSpan[]> {
  const tagger = await spec.create(options, { seed: 1, cwd: process.cwd() });
  return toDolma(text, tagger.tag(doc(text)));
}


/** A random string of `len` picks from `alphabet` (whole strings, so multi-unit characters stay intact). */
export function randomText(next: () => number, alphabet: readonly string[], len: number): string {
  let s = '';
  for (let i = 0; i < len; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

/** Python's `\s` (str.isspace) as a JS character-class body, for reference regexes. */
export const PY_WS_CLASS = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

export { rng };
