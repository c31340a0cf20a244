// What each DataTrove filter tagger's sub-rules compare: label, failing comparator and threshold, from the tagger's options.
import type { CmpOp } from '../recipe/ops.js';

/** One sub-rule as the tagger applies it: `<rule>_fail` = 1 exactly when `<rule> op threshold` (flags: when `<rule>` = 1). */
export interface SubRuleDef {
  rule: string;
  label: string;
  /** The comparison that fails the document; absent for 0/1 flags (the label says what the flag means). */
  op?: CmpOp;
  /** null: switched off in these options. */
  threshold?: number | null;
}

type Opts = Record<string, unknown>;
const num = (o: Opts, k: string): number | null => (typeof o[k] === 'number' ? (o[k] as number) : null);
/** DataTrove guards these with `if self.x and …`: 0 switches the rule off, like null. */
const guarded = (o: Opts, k: string): number | null => num(o, k) || null;
const pairs = (o: Opts, k: string): [number, number][] => (Array.isArray(o[k]) ? (o[k] as [number, number][]) : []);
const flag = (rule: string, label: string): SubRuleDef => ({ rule, label });

/** Tagger name → its sub-rules for the options it ran with (the tagger's code in tag/taggers/datatrove/ is the reference). */
export const SUB_RULES: Record<string, (o: Opts) => SubRuleDef[]> = {
  gopher_repetition: (o) => [
    { rule: 'dup_para_frac', label: 'duplicated paragraph fraction', op: '>', threshold: guarded(o, 'dup_para_frac') },
    { rule: 'dup_para_char_frac', label: 'duplicated paragraph character fraction', op: '>', threshold: guarded(o, 'dup_para_char_frac') },
    { rule: 'dup_line_frac', label: 'duplicated line fraction', op: '>', threshold: guarded(o, 'dup_line_frac') },
    { rule: 'dup_line_char_frac', label: 'duplicated line character fraction', op: '>', threshold: guarded(o, 'dup_line_char_frac') },
    ...pairs(o, 'top_n_grams').map(([n, t]): SubRuleDef => ({ rule: `top_${n}_gram`, label: `top ${n}-gram fraction`, op: '>', threshold: t })),
    ...pairs(o, 'dup_n_grams').map(([n, t]): SubRuleDef => ({ rule: `duplicated_${n}_n_grams`, label: `duplicated ${n}-gram fraction`, op: '>', threshold: t })),
  ],
  gopher_quality: (o) => [
    { rule: 'gopher_short_doc', label: 'words', op: '<', threshold: guarded(o, 'min_doc_words') },
    { rule: 'gopher_long_doc', label: 'words', op: '>', threshold: guarded(o, 'max_doc_words') },
    { rule: 'gopher_below_avg_threshold', label: 'mean word length', op: '<', threshold: guarded(o, 'min_avg_word_length') },
    { rule: 'gopher_above_avg_threshold', label: 'mean word length', op: '>', threshold: guarded(o, 'max_avg_word_length') },
    { rule: 'gopher_too_many_hashes', label: 'hashes per word', op: '>', threshold: guarded(o, 'max_symbol_word_ratio') },
    { rule: 'gopher_too_many_ellipsis', label: 'ellipses per word', op: '>', threshold: guarded(o, 'max_symbol_word_ratio') },
    { rule: 'gopher_too_many_bullets', label: 'bullet line fraction', op: '>', threshold: guarded(o, 'max_bullet_lines_ratio') },
    { rule: 'gopher_too_many_end_ellipsis', label: 'fraction of lines ending in an ellipsis', op: '>', threshold: guarded(o, 'max_ellipsis_lines_ratio') },
    { rule: 'gopher_below_alpha_threshold', label: 'fraction of words with a letter', op: '<', threshold: guarded(o, 'max_non_alpha_words_ratio') },
    { rule: 'gopher_enough_stop_words', label: 'stop words', op: '<', threshold: guarded(o, 'min_stop_words') },
  ],
  c4_quality: (o) => [
    flag('lorem_ipsum', 'contains "lorem ipsum"'),
    flag('curly_bracket', 'contains a curly bracket'),
    { rule: 'too_few_sentences', label: 'sentences', op: '<', threshold: num(o, 'min_num_sentences') === -1 ? null : num(o, 'min_num_sentences') },
  ],
  fineweb_quality: (o) => {
    const head = o.profile !== 'fineweb-2024';
    return [
      ...(head ? [flag('empty', 'empty text')] : []),
      { rule: 'line_punct_ratio', label: 'fraction of lines ending in punctuation', op: head ? '<' : '<=', threshold: num(o, 'line_punct_thr') },
      { rule: 'short_line_ratio', label: 'short line fraction', op: head ? '>' : '>=', threshold: num(o, 'short_line_thr') },
      { rule: 'char_dup_ratio', label: 'duplicated line character fraction', op: head ? '>' : '>=', threshold: num(o, 'char_duplicates_ratio') },
      { rule: 'list_ratio', label: 'newlines per word', op: '>', threshold: num(o, 'new_line_ratio') },
    ];
  },
  url_filter: (o) => [
    flag('domain', 'blocked domain'),
    flag('subdomain', 'blocked host'),
    flag('url', 'blocked URL'),
    flag('hard_blacklisted', 'banned word in the URL'),
    { rule: 'soft_blacklisted', label: 'soft-banned URL words', op: '>=', threshold: num(o, 'soft_word_threshold') },
    flag('blacklisted_subword', 'banned subword in the URL'),
  ],
  c4_paragraph: (o) => [{ rule: 'paragraph_len', label: `length of the ${num(o, 'min_paragraphs') ?? 3}th longest line`, op: '<', threshold: num(o, 'min_paragraph_len') }],
  regex_filter: () => [flag('regex', 'the regex matches')],
};
