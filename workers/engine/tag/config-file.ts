// A tag config file (Dolma's keys) or a recipe's `assay.tag` preset, resolved to tagger requests: shared by the CLI and the app's jobs.
import { cpus } from 'node:os';
import { parseConfigText, parseRecipe } from '../../../shared/recipe/load.js';
import { tagConfig } from '../../../shared/tag/schema.js';
import { AssayError } from '../errors.js';
import { RecipeError } from '../mix/config.js';
import type { TaggerRequest } from './runtime.js';

export interface TagFileSettings {
  documents?: string[];
  taggers?: string[];
  /** Taggers with their own experiments and options (from a recipe preset). */
  requests?: TaggerRequest[];
  experiment?: string;
  taggerModules?: string[];
  processes?: number;
  ignoreExisting?: boolean;
  skipExisting?: boolean;
  seed?: number;
  compressionLevel?: number;
  dryrun?: boolean;
  options: Record<string, Record<string, unknown>>;
}

/** Parses the text of `path`: a mixer recipe (it has `streams`) runs its preset, anything else is a tag config. */
export function tagSettingsFromText(text: string, path: string, env: NodeJS.ProcessEnv = process.env): TagFileSettings {
  const ctx = { env, cpuCount: cpus().length };
  if (/^streams\s*:/m.test(text) || /"streams"\s*:/.test(text)) return fromRecipe(text, path, ctx);
  const r = parseConfigText(text, tagConfig, ctx);
  if (!r.ok) throw new RecipeError(path, r.issues);
  const c = r.config;
  if (c.destination !== undefined) throw new AssayError('CONFIG', 'destination is not supported yet: outputs go to attributes/<experiment>/ beside documents/', { file: path, field: 'destination' });
  return {
    documents: c.documents,
    taggers: c.taggers,
    experiment: c.experiment,
    taggerModules: c.tagger_modules,
    processes: c.debug ? 1 : c.processes,
    ignoreExisting: c.ignore_existing,
    skipExisting: c.assay.skip_existing,
    seed: c.assay.seed,
    compressionLevel: c.assay.compression_level,
    dryrun: c.dryrun,
    options: c.assay.tagger_options,
  };
}

/** A mixer recipe with an `assay.tag` preset: tag every stream's documents with the preset's taggers. */
function fromRecipe(text: string, path: string, ctx: { env: NodeJS.ProcessEnv; cpuCount: number }): TagFileSettings {
  const r = parseRecipe(text, ctx);
  if (!r.ok) throw new RecipeError(path, r.issues);
  const preset = r.config.assay?.tag;
  if (!preset) throw new AssayError('CONFIG', 'this mixer recipe has no `assay: {tag: [...]}` tagger preset to run', { file: path, field: 'assay.tag' });
  const requests: TaggerRequest[] = preset.flatMap((group) =>
    group.taggers.map((t) => (typeof t === 'string' ? { name: t, experiment: group.experiment } : { name: t.name, options: t.options, experiment: group.experiment })),
  );
  return { documents: [...new Set(r.config.streams.flatMap((s) => s.documents))], requests, processes: r.config.processes, options: {} };
}
