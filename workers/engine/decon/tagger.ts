// The `decon` tagger: loads a saved decontamination index and writes overlap spans, counts and hit items per document.
import { resolve } from 'node:path';
import { z } from 'zod';
import { AssayError } from '../errors.js';
import type { TagDocument, TaggerSpec, TagSpan } from '../tag/types.js';
import type { DocMatch } from './index.js';
import { loadIndex, type LoadedIndex } from './index-file.js';

const options = z
  .object({
    index: z.string().min(1).describe('the saved index (`assay decon --build-only` writes one)'),
    sha256: z.string().optional().describe('refuse the index unless its bytes have this sha256 (assay decon sets it, so resume markers follow the index)'),
  })
  .strict();
type Options = z.infer<typeof options>;

/** One load per process: a pool worker tags many files with the same index. */
const loaded = new Map<string, Promise<LoadedIndex>>();

export const deconTagger: TaggerSpec<Options> = {
  name: 'decon',
  description: "Exact n-gram overlap with eval sets (DataTrove's simplify_text + spaCy-en words; build the index with assay decon)",
  outputs: [
    { type: 'overlap', description: 'The overlapping words (windows that overlap or touch merged); score 1.0', range: '1', level: 'spans' },
    { type: 'ngrams', description: 'Word n-grams of the document found in the eval index (0 when none)', range: '≥ 0', level: 'document' },
    { type: 'items', description: 'Distinct eval items hit', range: '≥ 0', level: 'document' },
    { type: 'hits', description: 'The items hit as "<set>:<item_id>" strings, sorted (an array of strings, not spans)', range: 'strings', level: 'document' },
  ],
  options,
  defaults: ['overlap'],
  async create(opts, ctx) {
    const path = resolve(ctx.cwd, opts.index);
    let p = loaded.get(path);
    if (!p) loaded.set(path, (p = loadIndex(path)));
    const { index, sha256 } = await p.catch((e: unknown) => {
      loaded.delete(path);
      throw e;
    });
    if (opts.sha256 !== undefined && opts.sha256 !== sha256) {
      loaded.delete(path);
      throw new AssayError('CONFIG', 'the decontamination index changed since this run started (sha256 differs); rerun assay decon', { file: path });
    }
    let last: { doc: TagDocument; m: DocMatch } | null = null;
    return {
      tag(doc: TagDocument): TagSpan[] {
        const m = index.match(doc.text);
        last = { doc, m };
        const len = doc.text.length;
        return [
          ...m.spans.map(([start, end]) => ({ start, end, type: 'overlap', score: 1 })),
          { start: 0, end: len, type: 'ngrams', score: m.ngrams },
          { start: 0, end: len, type: 'items', score: m.hits.length },
        ];
      },
      values(doc: TagDocument): Record<string, unknown> {
        return { hits: last?.doc === doc ? last.m.hits : index.match(doc.text).hits };
      },
    };
  },
};
