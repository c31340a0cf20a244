// The demo workspace's configs: dedupe and MinHash configs, and the ready recipe (Dolma mixer format with its tagger preset).

/** Attribute sets the demo writes, and the taggers (Dolma names) behind each. */
export const TAG_PRESET: { experiment: string; taggers: string[] }[] = [
  { experiment: 'gopher_rules', taggers: ['gopher_v1'] },
  { experiment: 'c4_rules', taggers: ['c4_v2'] },
  { experiment: 'pii', taggers: ['pii_regex_with_counts_fast_v2'] },
  { experiment: 'lang', taggers: ['ft_lang_id_en_doc_v2'] },
  { experiment: 'stats', taggers: ['char_length_with_paragraphs_v1', 'whitespace_tokenizer_v1'] },
];

export const DEDUPE_YAML = `# Dolma paragraph dedupe: every paragraph (line) seen before gets a span scored 1.
# Run again with: assay dedupe -c configs/dedupe.yaml
documents:
  - documents/*.jsonl.gz
dedupe:
  name: dedupe_paragraphs
  paragraphs:
    attribute_name: bff_duplicate_paragraph_spans
  skip_empty: true
bloom_filter:
  file: dedupe/paragraphs.bloom
  read_only: false
  estimated_doc_count: 100000
  desired_false_positive_rate: 0.0001
`;

export const MINHASH_YAML = `# FineWeb's MinHash near-duplicate detection (5-grams, 14 buckets x 8 hashes).
# Run again with: assay minhash -c configs/minhash.yaml
documents:
  - documents/*.jsonl.gz
name: minhash
`;

const span = (key: string, test: string): string => `"$.attributes[?(@.${key} && @.${key}[0] && @.${key}[0][2] ${test})]"`;

export const RECIPE_YAML = `# The demo recipe: Dolma mixer format, so it runs unchanged in Dolma and in \`assay mix\`.
# Each rule drops something the demo planted; open the preview to see how many and which.
#   assay tag -c recipes/demo.yaml   # re-runs the tagger preset at the bottom
#   assay mix -c recipes/demo.yaml   # writes output/demo/
streams:
  - name: demo
    documents:
      - documents/*.jsonl.gz
    attributes: [gopher_rules, c4_rules, pii, lang, stats, dedupe_paragraphs, minhash]
    output:
      path: output/demo
      max_size_in_bytes: 100000000
    filter:
      exclude:
        # C4: placeholder text and script notices
        - ${span('c4_rules__c4_v2__has_lorem_ipsum', '>= 1')}
        - ${span('c4_rules__c4_v2__has_javascript', '>= 1')}
        # directories and contact lists: more than five e-mail addresses / phone numbers
        - ${span('pii__pii_regex_with_counts_fast_v2__doc_count', '> 5')}
        # near and exact duplicates (MinHash keeps the first document of each cluster)
        - ${span('minhash__minhash_duplicate', '>= 1')}
        # not English (fastText LID-176)
        - ${span('lang__ft_lang_id_en_doc_v2__en', '< 0.5')}
        # Gopher: hashtag spam, then pages with too few words
        - ${span('gopher_rules__gopher_v1__symbol_to_word_ratio', '> 0.1')}
        - ${span('gopher_rules__gopher_v1__word_count', '< 50')}
    span_replacement:
      # redact e-mail addresses and phone numbers in the documents that are kept
      - span: $.attributes.pii__pii_regex_with_counts_fast_v2__EMAIL_ADDRESS
        min_score: 0.5
        replacement: " |||EMAIL_ADDRESS||| "
      - span: $.attributes.pii__pii_regex_with_counts_fast_v2__PHONE_NUMBER
        min_score: 0.5
        replacement: " |||PHONE_NUMBER||| "
      # remove paragraphs seen before (cookie banners, footers, repeated boilerplate)
      - span: $.attributes.bff_duplicate_paragraph_spans
        min_score: 0.5
        replacement: ""
processes: 1
assay:
  tag:
${TAG_PRESET.map((g) => `    - experiment: ${g.experiment}\n      taggers: [${g.taggers.join(', ')}]`).join('\n')}
`;
