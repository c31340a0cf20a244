// Dolma's deduper modes: build the per-document function a config asks for.
import type { DedupeConfig } from '../../../../shared/dedupe/schema.js';
import { documentsMode } from './documents.js';
import type { ApplyMode, ModeContext } from './modes.js';
import { paragraphsMode } from './paragraphs.js';

export { attributeRow, dedupeFile, type DedupeFileOptions, type FileCounts, type FileJob } from './file.js';
export type { ApplyMode, ModeContext, Span } from './modes.js';
export { checkDocumentDir, dedupeOutputPath } from './paths.js';
export { countWords, dedupeWords, isBlank } from './words.js';

/** The attribute key (and directory suffix): `_<partition_index>` is appended when partitioned (spec §1.4). */
export function attributeName(cfg: DedupeConfig['dedupe']): string {
  const base = cfg.documents?.attribute_name ?? cfg.paragraphs?.attribute_name ?? '';
  return cfg.num_partitions > 1 ? `${base}_${cfg.partition_index}` : base;
}

export function directoryName(cfg: DedupeConfig['dedupe']): string {
  return cfg.num_partitions > 1 ? `${cfg.name}_${cfg.partition_index}` : cfg.name;
}

export function buildMode(cfg: DedupeConfig['dedupe'], ctx: ModeContext): ApplyMode {
  const common = { minLength: cfg.min_length, minWords: cfg.min_words, skipEmpty: cfg.skip_empty };
  if (cfg.documents) return documentsMode({ key: cfg.documents.key, ...common }, ctx);
  const p = cfg.paragraphs;
  const ng = p?.by_ngram;
  return paragraphsMode(
    {
      separator: p?.paragraph_separator ?? '\n',
      ...common,
      ngram: ng && ng.ngram_length > 0 ? { length: ng.ngram_length, stride: ng.stride, threshold: ng.overlap_threshold, skipShort: ng.skip_short_paragraphs } : null,
    },
    ctx,
  );
}
