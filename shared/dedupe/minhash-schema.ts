// The `assay minhash` config file: DataTrove's MinhashConfig (n-grams, buckets, hashes, seed, hash) plus Assay's file layout, strict.
import { z } from 'zod';
import { executorConfig } from '../executor/schema.js';
import { safeSegment } from '../segment.js';

const strings = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));
const positive = z.number().int().min(1);

export const minhashConfig = z
  .object({
    /** Globs of documents files (each under a `documents/` directory: attributes go to `attributes/<name>/`). */
    documents: strings,
    /** Attribute directory and attribute-name prefix (`<name>__minhash_duplicate`, ...). */
    name: safeSegment(),
    document_dir: safeSegment().default('documents'),
    n_grams: positive.default(5),
    num_buckets: positive.max(1024).default(14),
    hashes_per_bucket: positive.max(64).default(8),
    seed: z.number().int().min(0).max(0xffffffff).default(1),
    /** DataTrove HEAD's default is xxhash; FineWeb used sha1. */
    hash_fc: z.enum(['sha1', 'xxhash']).default('xxhash'),
    precision: z.union([z.literal(32), z.literal(64)]).default(64),
    /** `head`: DataTrove HEAD simplify_text + spaCy-en tokens; `fineweb-2024`: v0.2.0 simplify_text + NLTK tokens. */
    profile: z.enum(['head', 'fineweb-2024']).default('head'),
    /** Where spill files go (a fresh subdirectory, removed) and `.minhash-resume/` (signatures of finished files, kept only until a run succeeds); default: `attributes/<name>/` of the first file. */
    work_dir: z.string().min(1).optional(),
    /** Memory for sorting one bucket; larger buckets are split by band key into partitions that fit. */
    max_memory_mb: z.number().positive().default(1024),
    compression: z.object({ input: z.string().optional(), output: z.string().optional() }).strict().optional(),
    /** Assay-only: where the run goes (local or a Slurm array); `--executor` flags override it. */
    assay: z.object({ executor: executorConfig.optional() }).strict().optional(),
  })
  .strict();

export type MinhashConfig = z.output<typeof minhashConfig>;
export type MinhashConfigInput = z.input<typeof minhashConfig>;
