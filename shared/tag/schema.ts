// The `assay tag` config file (Dolma's `dolma -c tag.yaml tag` keys, plus Assay's under `assay:`).
import { z } from 'zod';
import { executorConfig } from '../executor/schema.js';
import { safeSegment } from '../segment.js';

const strings = z.union([z.string().min(1), z.array(z.string().min(1))]).transform((v) => (Array.isArray(v) ? v : [v]));

export const tagConfig = z
  .object({
    documents: strings,
    taggers: strings,
    /** Outputs go to `attributes/<experiment>/`: one folder name. */
    experiment: safeSegment().optional(),
    tagger_modules: strings.default([]),
    processes: z.union([z.number().int().min(1), z.string().regex(/^\d+$/).transform(Number)]).default(1),
    ignore_existing: z.boolean().default(false),
    /** Dolma's sequential debug mode: Assay runs one process. */
    debug: z.boolean().default(false),
    dryrun: z.boolean().default(false),
    /** Dolma keys Assay accepts but does not need: markers live beside outputs, not in work_dir. */
    work_dir: z.object({ input: z.string().optional(), output: z.string().optional() }).strict().optional(),
    profile: z.object({}).passthrough().optional(),
    destination: z.union([z.string(), z.array(z.string())]).optional(),
    assay: z
      .object({
        /** Options per tagger name, validated by each tagger's schema. */
        tagger_options: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
        seed: z.number().int().default(0),
        skip_existing: z.boolean().default(false),
        /** Compression level of the attribute files (`--compression-level`): gzip 0–9 (default 4), zstd −7–22 (default 3). */
        compression_level: z.number().int().optional(),
        /** Where the run goes: locally or as a Slurm array job (`--executor` flags override it). */
        executor: executorConfig.optional(),
      })
      .strict()
      .default({ tagger_options: {}, seed: 0, skip_existing: false }),
  })
  .strict();

export type TagConfig = z.infer<typeof tagConfig>;

/**
 * A tagger preset inside a mixer recipe (`assay: {tag: [...]}`): the taggers whose attributes the
 * recipe reads, grouped by experiment, so `assay tag -c recipe.yaml` prepares what `assay mix` needs.
 */
export const tagPreset = z.array(
  z
    .object({
      experiment: safeSegment().optional(),
      taggers: z
        .array(z.union([z.string().min(1), z.object({ name: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) }).strict()]))
        .min(1),
    })
    .strict(),
);
export type TagPreset = z.infer<typeof tagPreset>;
