// Dolma's paragraph mode (src/deduper.rs:312-483): exact paragraphs or n-gram overlap, with its offset quirks.
import { AssayError } from '../../errors.js';
import { cpLength } from '../../text/python.js';
import { inPartition, type ApplyMode, type ModeContext, type Span } from './modes.js';
import { dedupeWords, isBlank } from './words.js';

export interface ParagraphsSettings {
  separator: string;
  minLength: number;
  minWords: number;
  skipEmpty: boolean;
  /** null: exact paragraphs (no by_ngram, or ngram_length 0). */
  ngram: { length: number; stride: number; threshold: number; skipShort: boolean } | null;
}

export function paragraphsMode(s: ParagraphsSettings, ctx: ModeContext): ApplyMode {
  const { filter, enc } = ctx;
  const threshold = Math.fround(s.ngram?.threshold ?? 1);

  /** Exact mode: the paragraph is the key; a partitioned-out paragraph is ignored. */
  const exact = (p: string): number | null => {
    const h0 = filter.locate(enc.one(p));
    if (!inPartition(ctx, h0)) return null;
    if (filter.has()) return 1;
    if (!ctx.readOnly) filter.add();
    return null;
  };

  /** Whole-paragraph fallback for short paragraphs: all hashers, partitioning ignored (as Dolma). */
  const whole = (p: string): number => {
    filter.locate(enc.one(p));
    if (filter.has()) return 1;
    if (!ctx.readOnly) filter.add();
    return 0;
  };

  const ngrams = (p: string, n: number, stride: number, skipShort: boolean): number | null => {
    const words = dedupeWords(p);
    let count = 0;
    let dups = 0;
    let last = 0;
    for (let at = 0; at + n <= words.length; at++) {
      // Dolma's sampling: `last` starts at 0, so windows 0 and 1 are both taken, then every `stride`.
      if (last !== 0 && at - last < stride) continue;
      last = at;
      const h0 = filter.locate(enc.encode(words.slice(at, at + n)));
      if (!inPartition(ctx, h0)) continue;
      count++;
      if (filter.has()) dups++;
      else if (!ctx.readOnly) filter.add();
    }
    if (count < 2) {
      if (skipShort) return null;
      const score = whole(p);
      return score >= threshold ? score : null;
    }
    const fraction = Math.fround(dups / count);
    return fraction >= threshold ? fraction : null;
  };

  return (record, file, line) => {
    const text = record.text;
    if (typeof text !== 'string') {
      throw new AssayError('PARSE', text === undefined ? "document has no 'text'" : "document 'text' must be a string", { file, line });
    }
    if (text.length === 0) return undefined;
    const spans: Span[] = [];
    const textBytes = Buffer.byteLength(text, 'utf8');
    let offset = 0;
    for (const p of text.split(s.separator)) {
      const start = offset;
      const chars = cpLength(p);
      offset += chars;
      // Dolma compares a code-point offset with a byte length and always adds 1, whatever the separator.
      if (offset < textBytes - 1) offset += 1;
      const end = offset;
      if (chars < s.minLength) continue;
      // Dolma's else-chain: with min_words set a paragraph is skipped when short and otherwise left
      // alone too, so no paragraph is ever deduped (spec §4.3, §10.8) and counting words is moot.
      if (s.minWords > 0) continue;
      if (s.skipEmpty && isBlank(p)) continue;
      const score = s.ngram === null ? exact(p) : ngrams(p, s.ngram.length, s.ngram.stride, s.ngram.skipShort);
      if (score !== null) spans.push([start, end, score]);
    }
    return spans;
  };
}
