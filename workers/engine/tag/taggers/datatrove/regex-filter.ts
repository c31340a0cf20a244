// regex_filter: DataTrove's RegexFilter (drop documents where a Python regex matches; no reason string).
import { z } from 'zod';
import type { TaggerSpec } from '../../types.js';
import { filterOutputs, filterSpans } from './common.js';
import { compilePythonSearch } from './py-search.js';

export const regexFilterOptions = z
  .object({
    regex_exp: z
      .string()
      .min(1)
      .describe(
        'Python `re` pattern; a document matching it is dropped. Runs on RE2 in linear time; a pattern with lookahead or backreferences runs on a backtracking engine with a time budget per document (1 s + 1 ms per 1,000 characters), past which the file fails',
      ),
  })
  .strict();
export type RegexFilterOptions = z.output<typeof regexFilterOptions>;

export const regexFilter: TaggerSpec<RegexFilterOptions> = {
  name: 'regex_filter',
  description: 'DataTrove RegexFilter: drops documents where the regex matches (DataTrove gives no reason string)',
  outputs: filterOutputs([{ rule: 'regex', measures: '1 when the regex matches somewhere in the text', range: '0 | 1' }]),
  options: regexFilterOptions,
  create(options) {
    const re = compilePythonSearch(options.regex_exp, 'regex_exp');
    return {
      tag: (doc) => {
        const hit = re.test(doc.text);
        return filterSpans(doc.text.length, [{ rule: 'regex', value: hit ? 1 : 0, fail: hit, reason: null }]);
      },
      close: () => re.close(),
    };
  },
};
