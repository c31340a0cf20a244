// Dolma's fastText LID-176 taggers (`taggers/language.py`): ft_lang_id_doc_v1 … ft_lang_id_en_paragraph_with_doc_score_v2.
import { z } from 'zod';
import { AssayError } from '../../../errors.js';
import { cpLength, pyRound } from '../../../text/python.js';
import type { TaggerOutput, TaggerSpec, TagSpan } from '../../types.js';
import { loadFastTextModel, type FastTextModel } from './model.js';
import { lidModelPath, resolveModelPath, stripLabel } from './options.js';
import { dolmaLangInput, splitParagraphs } from './text.js';

const options = z.object({ model_path: lidModelPath });
type Options = z.infer<typeof options>;

type LangScore = [lang: string, score: number];

interface Variant {
  name: string;
  description: string;
  paragraphs: boolean;
  /** `INCLUDE_NEGATIVE`: append `not_<type>` = 1 − score for every span. */
  negative: boolean;
  /** `ft_lang_id_en_paragraph_with_doc_score_v2`: length-weighted `doc_en` / `doc_not_en`. */
  docScore?: boolean;
  select(preds: LangScore[]): LangScore[];
  outputs: TaggerOutput[];
}

const all = (preds: LangScore[]): LangScore[] => preds;
/** `ft_lang_id_1e2`: labels with p > 0.01, rounded to 2 decimals. */
const over1e2 = (preds: LangScore[]): LangScore[] =>
  preds.filter(([, s]) => s > 0.01).map(([l, s]): LangScore => [l, pyRound(s, 2)]);
/** `*_en_*`: the `en` score, or 0.0 when fastText pruned it (p below ~1e-5). */
const enOnly = (preds: LangScore[]): LangScore[] => {
  const en = preds.filter(([l]) => l === 'en');
  return en.length > 0 ? en : [['en', 0.0]];
};

const langOut = (level: TaggerOutput['level'], what: string): TaggerOutput => ({
  type: '<lang>',
  description: `fastText LID-176 probability of each language ${what} (labels fastText did not prune, p ≳ 1e-5)`,
  range: '[0, 1]',
  level,
});
const enOut = (level: TaggerOutput['level']): TaggerOutput => ({
  type: 'en',
  description: 'P(English) from fastText LID-176, 0 when pruned',
  range: '[0, 1]',
  level,
});
const notEnOut = (level: TaggerOutput['level']): TaggerOutput => ({ type: 'not_en', description: '1 − en', range: '[0, 1]', level });

const doc = (name: string, description: string, select: Variant['select'], outputs: TaggerOutput[], negative = false): Variant => ({
  name,
  description: `fastText LID-176: ${description}`,
  paragraphs: false,
  negative,
  select,
  outputs,
});
const par = (name: string, description: string, select: Variant['select'], outputs: TaggerOutput[], negative = false): Variant => ({
  ...doc(name, description, select, outputs, negative),
  paragraphs: true,
});

const VARIANTS: Variant[] = [
  doc('ft_lang_id_doc_v1', 'every language probability of the document', all, [langOut('document', 'for the document')]),
  doc('ft_lang_id_1e2', 'languages with probability > 0.01, rounded to 2 decimals', over1e2, [
    { ...langOut('document', 'for the document'), description: 'language probability rounded to 2 decimals, only when > 0.01' },
  ]),
  par('ft_lang_id_paragraph_v1', 'every language probability of each paragraph', all, [langOut('spans', 'per paragraph')]),
  doc('ft_lang_id_en_doc_v2', 'English probability of the document and its complement', enOnly, [enOut('document'), notEnOut('document')], true),
  doc('ft_lang_id_en_only_v2', 'English probability of the document', enOnly, [enOut('document')]),
  par('ft_lang_id_en_paragraph_v2', 'English probability of each paragraph and its complement', enOnly, [enOut('spans'), notEnOut('spans')], true),
  {
    name: 'ft_lang_id_en_paragraph_with_doc_score_v2',
    description: 'fastText LID-176: per-paragraph English probability plus a length-weighted document score',
    paragraphs: true,
    negative: true,
    docScore: true,
    select: enOnly,
    outputs: [
      enOut('spans'),
      notEnOut('spans'),
      { type: 'doc_en', description: 'Σ paragraph length × en / document length (code points; 0 for empty text)', range: '[0, 1]', level: 'document' },
      { type: 'doc_not_en', description: '1 − doc_en (0 for empty text)', range: '[0, 1]', level: 'document' },
    ],
  },
];

function predictText(model: FastTextModel, text: string, v: Variant): LangScore[] {
  const preds = model.predict(dolmaLangInput(text), -1).map((p): LangScore => [stripLabel(p.label), p.probability]);
  return v.select(preds);
}

/**
 * Most spans one document may produce. Dolma writes every language fastText reports (p ≳ 1e-5) for
 * every paragraph: about 80–170 per line, so 10 KB of one-letter lines is 840,000 spans and 1 MB
 * would not fit in memory. Past this many (≈ 6,000–12,000 paragraphs, a 35 MB attribute line) the
 * document fails with a clear error instead of exhausting the heap.
 */
export const MAX_SPANS_PER_DOCUMENT = 1_000_000;

function tagDoc(model: FastTextModel, text: string, v: Variant): TagSpan[] {
  const spans: TagSpan[] = [];
  const units = v.paragraphs ? splitParagraphs(text) : [{ start: 0, end: text.length, text }];
  for (let p = 0; p < units.length; p++) {
    const u = units[p] as (typeof units)[number];
    for (const [type, score] of predictText(model, u.text, v)) spans.push({ start: u.start, end: u.end, type, score });
    if (spans.length > MAX_SPANS_PER_DOCUMENT) {
      throw new AssayError(
        'PARSE',
        `${v.name} would write more than ${MAX_SPANS_PER_DOCUMENT.toLocaleString('en-US')} spans for this document (${spans.length.toLocaleString('en-US')} after ${p + 1} of its ${units.length.toLocaleString('en-US')} paragraphs: Dolma writes every language fastText reports for every paragraph); tag such documents with ft_lang_id_en_paragraph_v2 or ft_lang_id_doc_v1`,
      );
    }
  }
  if (v.negative) {
    // A loop, not push(...spread): a long document can have more spans than a call has arguments.
    const n = spans.length;
    for (let i = 0; i < n; i++) {
      const s = spans[i] as TagSpan;
      spans.push({ start: s.start, end: s.end, type: `not_${s.type}`, score: 1.0 - s.score });
    }
  }
  if (v.docScore) spans.push(...docScore(text, spans));
  return spans;
}

/** `add_global_language_score_from_slice_score`; Python lengths are code points. */
function docScore(text: string, spans: TagSpan[]): TagSpan[] {
  const len = cpLength(text);
  let en = 0;
  let notEn = 0;
  if (len > 0) {
    let sum = 0;
    for (const s of spans) if (s.type === 'en') sum += cpLength(text.slice(s.start, s.end)) * s.score;
    en = sum / len;
    notEn = 1 - en;
  }
  return [
    { start: 0, end: text.length, type: 'doc_en', score: en },
    { start: 0, end: text.length, type: 'doc_not_en', score: notEn },
  ];
}

function spec(v: Variant): TaggerSpec<Options> {
  return {
    name: v.name,
    description: v.description,
    outputs: v.outputs,
    options,
    async create(opts, ctx) {
      const model = await loadFastTextModel(resolveModelPath(opts.model_path, ctx));
      return { tag: (doc) => tagDoc(model, doc.text, v), close: () => model.release() };
    },
  };
}

export const dolmaLangTaggers: TaggerSpec<Options>[] = VARIANTS.map(spec);
