// The `assay decon` config file (decon.yaml) and its flag form, resolved to DeconOptions.
import { cpus } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { executorConfig } from '../../../shared/executor/schema.js';
import { parseConfigText } from '../../../shared/recipe/load.js';
import { safeSegment } from '../../../shared/segment.js';
import { RecipeError } from '../mix/config.js';
import type { DeconOptions } from './run.js';

const strings = z.union([z.string().min(1), z.array(z.string().min(1))]).transform((v) => (Array.isArray(v) ? v : [v]));

export const deconConfig = z
  .object({
    name: safeSegment().describe('attributes/<name>/ and the key prefix <name>__decon__*'),
    documents: strings,
    eval: z
      .array(
        z
          .object({
            name: safeSegment(),
            path: z.string().min(1).describe('a .jsonl(.gz/.zst), .json, .csv or .parquet file'),
            fields: strings.describe('fields joined with a space: strings, or arrays of strings such as choices'),
            id_field: z.string().min(1).optional().describe('item id field (default: the 0-based row number)'),
          })
          .strict(),
      )
      .min(1),
    ngram: z.number().int().min(1).default(13),
    processes: z.union([z.number().int().min(1), z.string().regex(/^\d+$/).transform(Number)]).default(1),
    index: z.string().min(1).optional().describe('where the index is saved (default: <name>.decon.idx beside this config)'),
    rebuild: z.boolean().default(false),
    ignore_existing: z.boolean().default(false),
    /** Where the run goes (a Slurm array over the documents files); `--executor` flags override it. */
    assay: z.object({ executor: executorConfig.optional() }).strict().optional(),
  })
  .strict();

/**
 * A decon.yaml's text as options; eval paths and documents resolve against cwd (as in Dolma), the default index sits
 * beside the config (in `indexDir`, for text that is not yet in its file).
 */
export function deconOptionsFromText(text: string, path: string, env: NodeJS.ProcessEnv = process.env, indexDir = dirname(path)): Omit<DeconOptions, 'cwd'> {
  const r = parseConfigText(text, deconConfig, { env, cpuCount: cpus().length });
  if (!r.ok) throw new RecipeError(path, r.issues);
  const c = r.config;
  return {
    name: c.name,
    documents: c.documents,
    sets: c.eval.map((e) => ({ name: e.name, path: e.path, fields: e.fields, idField: e.id_field })),
    ngram: c.ngram,
    processes: c.processes,
    // Left relative when the config's path is: runDecon resolves it against its cwd (the app's workspace, not the host's directory).
    indexPath: c.index ?? join(indexDir, `${c.name}.decon.idx`),
    rebuild: c.rebuild,
    ignoreExisting: c.ignore_existing,
  };
}

/** The flag form's set name for an eval file: its name without extensions (`mmlu.test.jsonl.gz` → `mmlu`). */
export function setNameFor(path: string): string {
  return basename(path).replace(/\..*$/, '') || 'eval';
}
