// The Dolma mixer config ("recipe") as a zod schema: every key Dolma accepts, nothing else.
import { z } from 'zod';
import { executorConfig } from '../executor/schema.js';
import { safeSegment } from '../segment.js';
import { tagPreset } from '../tag/schema.js';

const nonEmpty = z.string().min(1, 'must not be empty');
/** OmegaConf resolvers may yield numbers as strings (`${d.processes:1}`); accept both. */
const intLike = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'must be an integer').transform(Number)]);
const numLike = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, 'must be a number').transform(Number)]);
const syntax = z.enum(['jsonpath', 'jq']);

const fraction = z.number().gt(0, 'a sample fraction is above 0').lte(1, 'a sample fraction is at most 1 (upsample with repeat)');
const copies = z.number().int('repeat is a whole number of copies').min(1, 'repeat is at least 1');

/** Assay-only options; Dolma ignores configs' unknown top-level keys only under this name by convention. */
export const assayStreamOptions = z
  .object({
    /** Allow a documents file without its attribute file (Dolma's silent behaviour). */
    allow_missing_attributes: z.boolean().optional(),
    /**
     * Keep a deterministic fraction of the documents the rules keep: all of the stream's, or per `source` (a source
     * not listed keeps everything). A document is kept when a hash of its id and `seed` falls below its fraction.
     */
    sample: z
      .object({ fraction: z.union([fraction, z.record(z.string(), fraction)]), seed: z.number().int().nonnegative().default(0) })
      .strict()
      .optional(),
    /** Copies `assay mix` writes of each kept document (upsampling, epochs over a source): all, or per `source`. */
    repeat: z.union([copies, z.record(z.string(), copies)]).optional(),
  })
  .strict();

export const filterConfig = z
  .object({
    include: z.array(nonEmpty).default([]),
    exclude: z.array(nonEmpty).default([]),
    syntax: syntax.default('jsonpath'),
  })
  .strict()
  .refine((f) => f.include.length + f.exclude.length > 0, {
    message: 'a filter needs at least one include or exclude expression',
  });

export const spanReplacementConfig = z
  .object({
    span: nonEmpty,
    min_score: numLike.optional(),
    max_score: numLike.optional(),
    replacement: z.string().default(''),
    syntax: syntax.default('jsonpath'),
  })
  .strict()
  .refine((s) => s.min_score !== undefined || s.max_score !== undefined, {
    message: 'span_replacement needs min_score or max_score',
  });

export const compressionConfig = z
  .object({ input: z.string().nullable().optional(), output: z.string().nullable().optional() })
  .strict();

export const streamOutputConfig = z
  .object({
    path: nonEmpty,
    max_size_in_bytes: intLike.pipe(z.number().int().positive()).default(2 * 2 ** 30),
    discard_fields: z.array(nonEmpty).default([]),
    min_text_length: intLike.pipe(z.number().int().min(0, 'must be ≥ 0')).default(0),
  })
  .strict();

export const streamConfig = z
  .object({
    /** Output shards are `<name>-NNNN.json.gz`: one file name, never a path. */
    name: safeSegment(),
    documents: z.array(nonEmpty).min(1, 'a stream needs at least one documents pattern'),
    /** Attribute sets, each the folder `attributes/<set>/`. */
    attributes: z.array(safeSegment()).default([]),
    output: streamOutputConfig,
    filter: filterConfig.optional(),
    span_replacement: z.array(spanReplacementConfig).optional(),
    compression: compressionConfig.optional(),
    assay: assayStreamOptions.optional(),
  })
  .strict()
  .refine((s) => s.filter !== undefined || s.span_replacement !== undefined, {
    message: 'Either `filter` or `span_replacement` must be specified (as Dolma requires)',
  });

export const workDirConfig = z
  .object({ input: z.string().optional(), output: z.string().optional() })
  .strict();

export const mixerConfig = z
  .object({
    streams: z.array(streamConfig).min(1, 'No streams to mix'),
    work_dir: workDirConfig.optional(),
    processes: intLike.pipe(z.number().int().min(1)).default(1),
    shuffle: z.boolean().default(true),
    dryrun: z.boolean().default(false),
    /** Assay-only: the tagger preset that produces this recipe's attributes (`assay tag -c recipe.yaml`). */
    assay: z.object({ tag: tagPreset.optional(), executor: executorConfig.optional() }).strict().optional(),
  })
  .strict();

export type MixerConfig = z.infer<typeof mixerConfig>;
export type StreamConfig = z.infer<typeof streamConfig>;
export type FilterConfig = z.infer<typeof filterConfig>;
export type SpanReplacementConfig = z.infer<typeof spanReplacementConfig>;
export type FilterSyntax = z.infer<typeof syntax>;
