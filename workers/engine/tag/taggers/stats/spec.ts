// Turns a per-document stats extractor into a TaggerSpec whose spans are document-level `[0, len, value]`.
import type { DocStatValues } from '../../../stats/types.js';
import type { TagDocument, TaggerOutput, TaggerSpec, TagSpan } from '../../types.js';
import type { StatsBlock } from './blocks.js';

/** One document-level span per stat, named exactly like DataTrove's stat. */
export function statSpans(doc: TagDocument, stats: DocStatValues): TagSpan[] {
  const spans: TagSpan[] = [];
  for (const [type, v] of stats) spans.push({ start: 0, end: doc.text.length, type, score: v.value });
  return spans;
}

/** The tagger of a stats block: the runtime validates options with the block's schema, then calls create. */
export function statsTagger(block: StatsBlock, description: string, outputs: TaggerOutput[]): TaggerSpec<unknown> {
  const spec: TaggerSpec<unknown> = {
    name: block.tagger,
    description,
    outputs,
    create(options: unknown) {
      const extract = block.extractor(options ?? {});
      return { tag: (doc) => statSpans(doc, extract(doc)) };
    },
  };
  if (block.options) spec.options = block.options;
  return spec;
}

/** A document-level output row. */
export const docOutput = (type: string, description: string, range: string): TaggerOutput => ({
  type,
  description,
  range,
  level: 'document',
});
