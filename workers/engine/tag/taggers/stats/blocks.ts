// DataTrove's stats blocks by class name: option schema plus extractor factory, shared by the taggers and `stats/`.
import { z } from 'zod';
import { AssayError } from '../../../errors.js';
import type { DocStatValues, StatsDocument } from '../../../stats/types.js';
import { docStats } from './doc.js';
import { lineStats, paragraphStats } from './line.js';
import { lineStatsOptions, paragraphStatsOptions, tokenStatsOptions, wordsContaminationOptions, wordStatsOptions } from './options.js';
import { tokenStats } from './tokens.js';
import { wordsContamination, wordStats } from './word.js';

export type StatsExtractor = (doc: StatsDocument) => DocStatValues;

export interface StatsBlock<S extends z.ZodType = z.ZodType> {
  /** DataTrove class (`LineStats`). */
  className: string;
  /** Tagger name (`line_stats`). */
  tagger: string;
  options: S | undefined;
  /** Build once (sets, tokenizer), then call per document. */
  extractor(options: z.output<S>): StatsExtractor;
}

const block = <S extends z.ZodType>(b: StatsBlock<S>): StatsBlock => b as unknown as StatsBlock;

export const STATS_BLOCKS: readonly StatsBlock[] = [
  block({ className: 'DocStats', tagger: 'doc_stats', options: undefined, extractor: () => (d) => docStats(d.text) }),
  block({ className: 'LineStats', tagger: 'line_stats', options: lineStatsOptions, extractor: (o) => (d) => lineStats(d.text, d.metadata, o) }),
  block({ className: 'ParagraphStats', tagger: 'paragraph_stats', options: paragraphStatsOptions, extractor: (o) => (d) => paragraphStats(d.text, o) }),
  block({
    className: 'WordStats',
    tagger: 'word_stats',
    options: wordStatsOptions,
    extractor: (o) => {
      const stop = new Set(o.stop_words);
      return (d) => wordStats(d.text, o, stop);
    },
  }),
  block({
    className: 'WordsContaminationStats',
    tagger: 'words_contamination',
    options: wordsContaminationOptions,
    extractor: (o) => {
      const watched = new Set(o.words);
      return (d) => wordsContamination(d.text, o, watched);
    },
  }),
  block({ className: 'TokenStats', tagger: 'token_stats', options: tokenStatsOptions, extractor: () => (d) => tokenStats(d.text, d.metadata) }),
];

/** A block by DataTrove class name or tagger name, with its extractor built from raw kwargs (validated). */
export function statsExtractor(name: string, kwargs: Record<string, unknown> = {}): StatsExtractor | undefined {
  const b = STATS_BLOCKS.find((x) => x.className === name || x.tagger === name);
  if (!b) return undefined;
  if (!b.options) return b.extractor({});
  const parsed = b.options.safeParse(kwargs);
  if (!parsed.success) throw new AssayError('CONFIG', `${b.className} options: ${z.prettifyError(parsed.error)}`, { field: b.tagger });
  return b.extractor(parsed.data);
}
