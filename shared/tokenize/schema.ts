// The `assay tokens` config file: Dolma's TokenizerConfig keys (cli/tokenizer.py), nested as Dolma nests them, strict.
import { z } from 'zod';
import { executorConfig } from '../executor/schema.js';

const strings = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));
const positive = z.union([z.number().int().min(1), z.string().regex(/^\d+$/).transform(Number)]);
const tokenId = z.number().int().min(0).nullable().default(null);

const tokenizer = z
  .object({
    /** A local tokenizer.json (or a folder holding one), or a built-in name (`gpt2`); may come from the command line instead. */
    name_or_path: z.string().min(1).optional(),
    bos_token_id: tokenId,
    eos_token_id: tokenId,
    /** Not written into outputs; Dolma defaults it to the EOS id. */
    pad_token_id: tokenId,
    segment_before_tokenization: z.boolean().default(false),
    encode_special_tokens: z.boolean().default(false),
    /** Dolma re-creates its tokenizer every N documents against a memory leak; Assay's does not leak, so it is accepted and ignored. */
    refresh: z.number().int().min(0).default(0),
    /** Dolma's switch to transformers' slow tokenizers; Assay has only the fast path. */
    fast: z.literal(true, { message: 'Assay has no slow (transformers) tokenizers; remove tokenizer.fast: false' }).default(true),
  })
  .strict();

const fields = z
  .object({
    text_field_name: z.string().min(1).default('text'),
    text_field_type: z.literal('str', { message: "only 'str' text fields exist" }).default('str'),
    /** null → Dolma's generated id `sha256(path)-<line>`. */
    id_field_name: z.string().min(1).nullable().default('id'),
    id_field_type: z.enum(['str', 'int']).default('str'),
  })
  .strict();

export const tokensConfig = z
  .object({
    /** Required, here or on the command line (as are destination and tokenizer.name_or_path). */
    documents: strings.optional(),
    destination: z.string().min(1).optional(),
    tokenizer: tokenizer.default({ bos_token_id: null, eos_token_id: null, pad_token_id: null, segment_before_tokenization: false, encode_special_tokens: false, refresh: 0, fast: true }),
    /** Dolma's deprecated top-level key (it set eos = vocab_size - 1); refused so the ids are explicit. */
    tokenizer_name_or_path: z.string().optional(),
    processes: positive.default(1),
    files_per_process: positive.nullable().optional(),
    batch_size: positive.default(10_000),
    ring_size: positive.default(8),
    sample_ring_prop: z.boolean().default(false),
    /** In tokens, not bytes (as in Dolma). */
    max_size: positive.default(1024 ** 3),
    dtype: z.enum(['uint8', 'uint16', 'uint32']).default('uint16'),
    fields: fields.default({ text_field_name: 'text', text_field_type: 'str', id_field_name: 'id', id_field_type: 'str' }),
    seed: z.number().int().default(3920),
    /** Dolma keys Assay accepts but does not need (temporary files live beside the outputs). */
    work_dir: z.object({ input: z.string().nullable().optional(), output: z.string().nullable().optional() }).strict().optional(),
    debug: z.boolean().default(false),
    dryrun: z.boolean().default(false),
    /** Assay-only: where the run goes (local or a Slurm array); `--executor` flags override it. */
    assay: z.object({ executor: executorConfig.optional() }).strict().optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.tokenizer_name_or_path !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['tokenizer_name_or_path'], message: 'deprecated in Dolma: use tokenizer.name_or_path and set tokenizer.eos_token_id explicitly' });
    }
  });

export type TokensConfig = z.output<typeof tokensConfig>;
export type TokensConfigInput = z.input<typeof tokensConfig>;
