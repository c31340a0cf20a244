// c4_paragraph: DataTrove's C4ParagraphFilter (mC4's paragraph rule, datatrove-spec §5.2).
import { z } from 'zod';
import { cpLength } from '../../../text/python.js';
import type { TaggerSpec } from '../../types.js';
import { filterOutputs, filterSpans, type RuleOutcome } from './common.js';

export const c4ParagraphOptions = z
  .object({
    min_paragraphs: z.number().int().positive().default(3).describe('Lines (split on \\n) of at least min_paragraph_len a document needs'),
    min_paragraph_len: z.number().int().default(200).describe('Code points a line needs to count'),
  })
  .strict();
export type C4ParagraphOptions = z.output<typeof c4ParagraphOptions>;

/** Value: the min_paragraphs-th longest line length (absent with fewer lines); reason `< {min_paragraphs} paragraphs`. */
export function c4ParagraphRules(text: string, o: C4ParagraphOptions): RuleOutcome[] {
  const lens = text.split('\n').map(cpLength).sort((a, b) => b - a);
  const nth = lens.length >= o.min_paragraphs ? lens[o.min_paragraphs - 1] : undefined;
  const fail = nth === undefined || nth < o.min_paragraph_len;
  return [{ rule: 'paragraph_len', value: nth, fail, reason: `< ${o.min_paragraphs} paragraphs` }];
}

export const c4Paragraph: TaggerSpec<C4ParagraphOptions> = {
  name: 'c4_paragraph',
  description: 'DataTrove C4ParagraphFilter: keep documents with at least 3 lines of 200+ characters',
  outputs: filterOutputs([{ rule: 'paragraph_len', measures: 'Length of the min_paragraphs-th longest line (code points)', range: '≥ 0' }]),
  options: c4ParagraphOptions,
  create(options) {
    return { tag: (doc) => filterSpans(doc.text.length, c4ParagraphRules(doc.text, options)) };
  },
};
