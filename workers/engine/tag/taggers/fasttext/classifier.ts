// `fasttext_classifier`: any supervised fastText model (jigsaw, quality, DCLM…) per document, paragraph or sentence.
import { z } from 'zod';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { loadFastTextModel } from './model.js';
import { resolveModelPath, stripLabel } from './options.js';
import { newlineToSpaceInput, splitParagraphs, splitSentences, whitespaceJoinInput, type TextUnit } from './text.js';

const options = z.object({
  model_path: z.string().min(1).describe('Supervised fastText model (.bin or .ftz), relative to the run directory. Required.'),
  level: z
    .enum(['document', 'paragraph', 'sentence'])
    .default('document')
    .describe('Unit scored: the whole text, Dolma paragraphs (lines, blank ones skipped), or sentences (approximate: Dolma uses blingfire/Punkt).'),
  k: z
    .number()
    .int()
    .refine((k) => k === -1 || k >= 1, 'k must be -1 (all) or ≥ 1')
    .default(-1)
    .describe('Labels per unit, most probable first; -1 = all (Dolma uses k=-1).'),
  preprocess: z
    .enum(['newlines', 'whitespace'])
    .default('newlines')
    .describe('newlines: text.replace("\\n", " ").strip() (Dolma jigsaw). whitespace: split on whitespace and join with one space (dolma17-quality).'),
  lowercase: z.boolean().default(false).describe('Lower-case the text first (for models trained on lower-cased text).'),
  strip_label_prefix: z
    .boolean()
    .default(false)
    .describe('Emit `toxic` instead of `__label__toxic` (dolma17-quality strips the prefix; jigsaw keeps it).'),
});
type Options = z.infer<typeof options>;

const UNITS: Record<Options['level'], (text: string) => TextUnit[]> = {
  document: (text) => [{ start: 0, end: text.length, text }],
  paragraph: splitParagraphs,
  sentence: splitSentences,
};

export const fasttextClassifierTagger: TaggerSpec<Options> = {
  name: 'fasttext_classifier',
  description: "A user-supplied supervised fastText model: one span per label per unit, typed by label (like Dolma's jigsaw taggers)",
  outputs: [
    {
      type: '__label__*',
      description: "the model's probability of that label for the unit",
      range: '[0, 1] (fastText may emit 1.00001)',
      level: 'spans',
    },
  ],
  options,
  async create(opts, ctx) {
    const model = await loadFastTextModel(resolveModelPath(opts.model_path, ctx));
    const prep = opts.preprocess === 'whitespace' ? whitespaceJoinInput : newlineToSpaceInput;
    const units = UNITS[opts.level];
    return {
      tag(doc) {
        const spans: TagSpan[] = [];
        for (const u of units(doc.text)) {
          const input = prep(opts.lowercase ? u.text.toLowerCase() : u.text);
          for (const p of model.predict(input, opts.k)) {
            spans.push({ start: u.start, end: u.end, type: opts.strip_label_prefix ? stripLabel(p.label) : p.label, score: p.probability });
          }
        }
        return spans;
      },
      close: () => model.release(),
    };
  },
};
