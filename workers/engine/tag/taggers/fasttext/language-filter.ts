// `language_filter`: DataTrove's LanguageFilter (ft176 backend) as a tagger, HEAD or FineWeb-era (v0.2.0) rules.
import { z } from 'zod';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { loadFastTextModel, type FastTextModel } from './model.js';
import { docSpan, lidModelPath, resolveModelPath } from './options.js';

export type LanguageProfile = 'head' | 'fineweb-2024';

export interface LanguageFilterOptions {
  /** Languages to keep; undefined = HEAD's `None` (keep any language scoring above the threshold). */
  languages?: string[] | undefined;
  language_threshold: number;
  profile: LanguageProfile;
  label_only: boolean;
  keep_top_pairs_threshold: number;
}

export interface LanguageDecision {
  /** DataTrove's `metadata.language` / `language_score`. */
  language: string;
  languageScore: number;
  /** Score per requested language (HEAD: `pairs.get(l, 0.0)`; FineWeb: top-1 score if it is `l`, else 0). */
  scores: Record<string, number>;
  /** `top_language_{l}_score` pairs (HEAD, when keep_top_pairs_threshold ≠ −1). */
  topPairs: Record<string, number>;
  kept: boolean;
}

/** `label.split("__")[2]`, DataTrove's way of reading `__label__en`; remembered, as every document ranks all labels. */
const langOf = new Map<string, string>();
function labelLang(label: string): string {
  let lang = langOf.get(label);
  if (lang === undefined) {
    lang = label.split('__')[2] ?? label;
    if (langOf.size < 100_000) langOf.set(label, lang);
  }
  return lang;
}

/**
 * The filter decision (`pipeline/filters/language_filter.py`, `utils/lid.py`). HEAD predicts all
 * labels on `text.replace("\n", " ")` and keeps when any requested language scores above the
 * threshold; v0.2.0 (FineWeb) predicts the top label on `text.replace("\n", "")` — lines glued with
 * no space — and keeps when it is a requested language scoring above the threshold.
 */
export function decideLanguage(model: FastTextModel, text: string, o: LanguageFilterOptions): LanguageDecision {
  const fineweb = o.profile === 'fineweb-2024';
  const languages = o.languages ?? (fineweb ? ['en'] : undefined);
  const labelOf = fineweb || o.keep_top_pairs_threshold !== -1 || model.first === undefined ? null : labelsByLanguage(model.labels);
  if (labelOf !== null) return decideHead(model, text, o, languages, labelOf);
  const preds = fineweb ? model.predict(text.replace(/\n/g, ''), 1) : model.predict(text.replace(/\n/g, ' '), -1);
  const pairs = new Map<string, number>();
  for (const p of preds) pairs.set(labelLang(p.label), p.probability);
  const [language, languageScore] = pairs.entries().next().value ?? ['', 0];
  const scores: Record<string, number> = {};
  for (const l of languages ?? []) scores[l] = pairs.get(l) ?? 0.0;
  const topPairs: Record<string, number> = {};
  if (!fineweb && o.keep_top_pairs_threshold !== -1) {
    for (const [l, s] of pairs) if (s > o.keep_top_pairs_threshold) topPairs[l] = s;
  }
  const thr = o.language_threshold;
  const kept = fineweb
    ? languageScore > thr && (languages ?? []).includes(language)
    : o.label_only ||
      (languages !== undefined && Object.values(scores).some((s) => s > thr)) ||
      (languages === undefined && languageScore > thr);
  return { language, languageScore, scores, topPairs, kept };
}

/** Language → label, when no two labels of the model read as the same language (else null: the pairs need merging). */
const byLanguage = new WeakMap<readonly string[], Map<string, string> | null>();
function labelsByLanguage(labels: readonly string[]): Map<string, string> | null {
  let map = byLanguage.get(labels);
  if (map === undefined) {
    map = new Map(labels.map((l) => [labelLang(l), l]));
    if (map.size !== labels.length) map = null;
    byLanguage.set(labels, map);
  }
  return map;
}

/**
 * HEAD without top pairs needs only the first prediction and the requested languages' scores of all labels:
 * `model.first` gives those without ranking the rest. Each language has one label, so the pairs `decideLanguage`
 * builds would hold exactly these.
 */
/** The labels of `languages` (all: none asked), one array per model's labels and languages asked. */
const wantedLabels = new WeakMap<Map<string, string>, { none?: string[]; asked: WeakMap<string[], string[]> }>();

/**
 * One array per tagger, not one per document: a new one per document had another map once V8 inlined the `map` that
 * made it, and the predictor's code, compiled for the first kind, was thrown away.
 */
function labelsOf(labelOf: Map<string, string>, languages: string[] | undefined): string[] {
  let cached = wantedLabels.get(labelOf);
  if (cached === undefined) wantedLabels.set(labelOf, (cached = { asked: new WeakMap() }));
  if (languages === undefined) return (cached.none ??= []);
  let labels = cached.asked.get(languages);
  if (labels === undefined) cached.asked.set(languages, (labels = languages.map((l) => labelOf.get(l) ?? '')));
  return labels;
}

function decideHead(model: FastTextModel, text: string, o: LanguageFilterOptions, languages: string[] | undefined, labelOf: Map<string, string>): LanguageDecision {
  const wanted = languages ?? [];
  const r = (model.first as NonNullable<FastTextModel['first']>)(text, labelsOf(labelOf, languages));
  const language = r.first === null ? '' : labelLang(r.first.label);
  const languageScore = r.first?.probability ?? 0;
  const scores: Record<string, number> = {};
  wanted.forEach((l, i) => (scores[l] = r.probabilities[i] ?? 0.0));
  const thr = o.language_threshold;
  const kept = o.label_only || (languages !== undefined && Object.values(scores).some((s) => s > thr)) || (languages === undefined && languageScore > thr);
  return { language, languageScore, scores, topPairs: {}, kept };
}

const options = z.object({
  languages: z
    .union([z.string().min(1).transform((s) => [s]), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe('Languages to keep (lid.176 codes, e.g. ["en"]). Omitted: HEAD keeps any language above the threshold; fineweb-2024 uses ["en"].'),
  language_threshold: z.number().min(0).max(1).default(0.65).describe('Keep when the score is strictly above this.'),
  profile: z
    .enum(['head', 'fineweb-2024'])
    .default('head')
    .describe(
      'head: DataTrove HEAD (newlines → spaces, all labels, any requested language > threshold). ' +
        'fineweb-2024: v0.2.0 as FineWeb ran it (newlines removed, top label only, must be a requested language).',
    ),
  label_only: z.boolean().default(false).describe('HEAD: always kept = 1 (only label the language).'),
  keep_top_pairs_threshold: z.number().default(-1).describe('HEAD: also emit top_language_<l>_score for every language scoring above this; -1 disables.'),
  model_path: lidModelPath,
});
type Options = z.infer<typeof options>;

function spans(text: string, d: LanguageDecision): TagSpan[] {
  const out: TagSpan[] = Object.entries(d.scores).map(([l, s]) => docSpan(text, l, s));
  if (d.language !== '') out.push(docSpan(text, `language_${d.language}`, d.languageScore));
  for (const [l, s] of Object.entries(d.topPairs)) out.push(docSpan(text, `top_language_${l}_score`, s));
  out.push(docSpan(text, 'kept', d.kept ? 1 : 0));
  return out;
}

export const languageFilterTagger: TaggerSpec<Options> = {
  name: 'language_filter',
  description: "DataTrove's LanguageFilter on fastText LID-176 (FineWeb's language step); profile fineweb-2024 reproduces v0.2.0",
  outputs: [
    { type: '<lang>', description: 'score of each requested language', range: '[0, 1]', level: 'document' },
    {
      type: 'language_<lang>',
      description: "the top language and its score (DataTrove's metadata language / language_score)",
      range: '[0, 1]',
      level: 'document',
    },
    { type: 'top_language_<lang>_score', description: 'every language above keep_top_pairs_threshold (when set)', range: '[0, 1]', level: 'document' },
    { type: 'kept', description: 'LanguageFilter keeps the document', range: '0 | 1', level: 'document' },
  ],
  options,
  async create(opts, ctx) {
    const model = await loadFastTextModel(resolveModelPath(opts.model_path, ctx));
    return { tag: (doc) => spans(doc.text, decideLanguage(model, doc.text, opts)), close: () => model.release() };
  },
};
