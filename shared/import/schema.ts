// The import job's config (what the app's Sources dialog launches): Parquet files → Dolma documents, the flags of `assay import` as keys.
import { z } from 'zod';

const strings = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

export const importConfig = z
  .object({
    /** Parquet files or globs. */
    documents: strings,
    /** Dataset root: documents go to `<destination>/documents/<name>.jsonl.gz` (default the workspace itself). */
    destination: z.string().min(1).default('.'),
    text_field: z.string().min(1).optional(),
    id_field: z.string().min(1).optional(),
    source: z.string().min(1).optional(),
    /** Files imported at once (one pool worker each). */
    processes: z.number().int().min(1).max(256).optional(),
  })
  .strict();

export type ImportConfig = z.output<typeof importConfig>;
