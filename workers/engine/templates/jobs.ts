// Starter configs for the other job kinds (tag, dedupe, minhash, tokens, decon), in Dolma's formats, pointed at the workspace's documents.
import { documentGlobs, inWorkspace, type TemplateContext } from './layout.js';

const list = (xs: readonly string[]): string => xs.map((x) => `  - ${x}`).join('\n');

export function renderTag(ctx: TemplateContext): string {
  return `# Dolma tag config: taggers read each documents file once and write attributes/<experiment>/ beside it.
# \`assay list\` shows every tagger; options go under assay: {tagger_options: {TAGGER: {...}}}.
documents:
${list(documentGlobs(ctx))}
experiment: starter
taggers:
  - char_length_v1
  - whitespace_tokenizer_v1
  - gopher_v1
  - pii_regex_with_counts_fast_v2
processes: 1
`;
}

export function renderDedupe(ctx: TemplateContext): string {
  return `# Dolma paragraph dedupe: every paragraph (line) seen before gets a span scored 1 in attributes/dedupe_paragraphs/.
# Drop or delete them in a recipe: span_replacement {span: $.attributes.bff_duplicate_paragraph_spans, min_score: 0.5, replacement: ""}.
documents:
${list(documentGlobs(ctx))}
dedupe:
  name: dedupe_paragraphs
  paragraphs:
    attribute_name: bff_duplicate_paragraph_spans
  skip_empty: true
bloom_filter:
  file: ${inWorkspace(ctx, 'dedupe/paragraphs.bloom')}
  read_only: false
  estimated_doc_count: 1000000
  desired_false_positive_rate: 0.0001
`;
}

export function renderMinhash(ctx: TemplateContext): string {
  return `# FineWeb's MinHash near-duplicate detection (5-grams, 14 buckets x 8 hashes) → attributes/minhash/.
# Drop duplicates in a recipe: exclude "$.attributes[?(@.minhash__minhash_duplicate && @.minhash__minhash_duplicate[0] && @.minhash__minhash_duplicate[0][2] >= 1)]".
documents:
${list(documentGlobs(ctx))}
name: minhash
`;
}

export function renderTokens(ctx: TemplateContext): string {
  return `# Dolma tokenize for OLMo: uint16 memmaps (part-*.npy) + metadata (part-*.csv.gz) under destination/.
# To tokenize what a mix kept, point documents at its output, e.g. output/fineweb/*.json.gz.
documents:
${list(documentGlobs(ctx))}
destination: tokens
tokenizer:
  name_or_path: gpt2
  eos_token_id: 50256
dtype: uint16
processes: 1
`;
}

export function renderDecon(ctx: TemplateContext): string {
  return `# Decontamination: every run of 13 words shared with an eval set's items, as attributes/decon/ (spans, items, hits).
# Put each eval set in the workspace (.jsonl, .json, .csv or .parquet) and name the fields holding an item's text;
# the Contamination tab then shows each set's share of items found, and a recipe can drop the documents:
# exclude "$.attributes[?(@.decon__decon__items && @.decon__decon__items[0] && @.decon__decon__items[0][2] > 0)]".
name: decon
documents:
${list(documentGlobs(ctx))}
eval:
  - name: my_eval
    path: ${inWorkspace(ctx, 'evals/my_eval.jsonl')}
    fields: [question]
ngram: 13
processes: 1
`;
}
