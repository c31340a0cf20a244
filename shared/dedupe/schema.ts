// The `assay dedupe` config file: every key of Dolma's deduper config (cli/deduper.py, src/deduper.rs), strict.
import { z } from 'zod';
import { executorConfig } from '../executor/schema.js';
import { safeSegment } from '../segment.js';

const strings = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));
const count = z.number().int().min(0);

const byNgram = z
  .object({
    /** 0 turns n-gram mode off (exact paragraph dedupe). */
    ngram_length: count.default(0),
    stride: count.default(0),
    overlap_threshold: z.number().min(0).max(1).default(1.0),
    skip_short_paragraphs: z.boolean().default(false),
  })
  .strict();

const paragraphs = z
  .object({
    // The attribute folder defaults to it, so it is one folder name too.
    attribute_name: safeSegment(),
    // Dolma accepts "" and then splits between every character; Assay refuses it as a mistake.
    paragraph_separator: z.string().min(1, 'paragraph_separator must not be empty').default('\n'),
    by_ngram: byNgram.optional(),
  })
  .strict();

const documents = z.object({ attribute_name: safeSegment(), key: z.string().min(1) }).strict();

const dedupe = z
  .object({
    /** The attribute folder `attributes/<name>/`. */
    name: safeSegment().optional(),
    documents: documents.optional(),
    paragraphs: paragraphs.optional(),
    skip_empty: z.boolean().default(false),
    min_length: count.default(0),
    min_words: count.default(0),
    num_partitions: z.number().int().min(1).default(1),
    partition_index: count.default(0),
    file_partition: z.boolean().default(false),
    document_dir: safeSegment().default('documents'),
  })
  .strict()
  .superRefine((d, ctx) => {
    if ((d.documents === undefined) === (d.paragraphs === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of dedupe.documents and dedupe.paragraphs', path: [] });
    }
    if (d.partition_index >= d.num_partitions) {
      ctx.addIssue({ code: 'custom', message: `partition_index must be < num_partitions (${d.num_partitions})`, path: ['partition_index'] });
    }
  })
  .transform((d) => ({ ...d, name: d.name ?? d.documents?.attribute_name ?? d.paragraphs?.attribute_name ?? '' }));

const bloomFilter = z
  .object({
    file: z.string().min(1),
    read_only: z.boolean(),
    size_in_bytes: count.default(0),
    estimated_doc_count: count.default(0),
    desired_false_positive_rate: z.number().min(0).lt(1).default(0),
  })
  .strict()
  .superRefine((b, ctx) => {
    // A read-only filter may take its geometry from the file; a new one needs a size.
    const sized = b.size_in_bytes > 0 ? b.estimated_doc_count > 0 : b.estimated_doc_count > 0 && b.desired_false_positive_rate > 0;
    const unsized = b.size_in_bytes === 0 && b.estimated_doc_count === 0 && b.desired_false_positive_rate === 0;
    if (sized || (unsized && b.read_only)) return;
    ctx.addIssue({
      code: 'custom',
      path: [],
      message:
        b.size_in_bytes > 0
          ? 'size_in_bytes also needs estimated_doc_count > 0 (it sets the number of hash functions; Dolma divides by zero here)'
          : 'give estimated_doc_count and desired_false_positive_rate (both > 0), or size_in_bytes and estimated_doc_count',
    });
  });

const codecName = z.string();

export const dedupeConfig = z
  .object({
    documents: strings,
    dedupe,
    bloom_filter: bloomFilter,
    /** Accepted for Dolma compatibility; Assay dedupes in one process so the filter stays exact. */
    processes: z.union([z.number().int().min(1), z.string().regex(/^\d+$/).transform(Number)]).default(1),
    compression: z.object({ input: codecName.optional(), output: codecName.optional() }).strict().optional(),
    /** Dolma keys Assay accepts but does not need: progress is kept inside the bloom filter file. */
    work_dir: z.object({ input: z.string().optional(), output: z.string().optional() }).strict().optional(),
    is_s3_volume: z.boolean().optional(),
    dryrun: z.boolean().default(false),
    /** Assay-only: where the run goes (a Slurm array of hash partitions); `--executor` flags override it. */
    assay: z.object({ executor: executorConfig.optional() }).strict().optional(),
  })
  .strict();

export type DedupeConfig = z.output<typeof dedupeConfig>;
export type DedupeConfigInput = z.input<typeof dedupeConfig>;
