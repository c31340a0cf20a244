// `lid176`: the top fastText LID-176 language(s) of a document as `<lang>` spans, DataTrove-style input.
import { z } from 'zod';
import type { TaggerSpec } from '../../types.js';
import { loadFastTextModel } from './model.js';
import { docSpan, lidModelPath, resolveModelPath, stripLabel } from './options.js';
import { dolmaLangInput } from './text.js';

const options = z.object({
  k: z
    .number()
    .int()
    .refine((k) => k === -1 || k >= 1, 'k must be -1 (all) or ≥ 1')
    .default(1)
    .describe('How many top languages to emit; -1 for every label fastText returns.'),
  min_score: z.number().min(0).max(1).default(0).describe('Only emit languages whose probability is ≥ this (fastText threshold).'),
  lowercase: z
    .boolean()
    .default(false)
    .describe('Lower-case and strip the text first, as Dolma\'s ft_lang_id_* taggers do. Default: DataTrove\'s input (newlines → spaces only).'),
  model_path: lidModelPath,
});
type Options = z.infer<typeof options>;

export const lid176Tagger: TaggerSpec<Options> = {
  name: 'lid176',
  description: 'fastText LID-176 (lid.176.ftz shipped, offline): top-k languages of the document with their probabilities',
  outputs: [{ type: '<lang>', description: 'probability of a top-k language (ISO 639-1-like lid.176 code)', range: '[0, 1]', level: 'document' }],
  options,
  async create(opts, ctx) {
    const model = await loadFastTextModel(resolveModelPath(opts.model_path, ctx));
    return {
      tag(doc) {
        const input = opts.lowercase ? dolmaLangInput(doc.text) : doc.text.replace(/\n/g, ' ');
        return model.predict(input, opts.k, opts.min_score).map((p) => docSpan(doc.text, stripLabel(p.label), p.probability));
      },
      close: () => model.release(),
    };
  },
};
