// Parses a job's config per kind and checks every path it would read or write against the workspace, before any process starts.
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import type { JobKind } from '../../../shared/contract/index.js';
import { dedupeConfig, type DedupeConfig } from '../../../shared/dedupe/schema.js';
import { minhashConfig, type MinhashConfig } from '../../../shared/dedupe/minhash-schema.js';
import { parseConfigText, parseRecipe } from '../../../shared/recipe/load.js';
import type { MixerConfig } from '../../../shared/recipe/schema.js';
import { importConfig, type ImportConfig } from '../../../shared/import/schema.js';
import { tokensConfig } from '../../../shared/tokenize/schema.js';
import { UsageError } from '../../engine/cli/args.js';
import { deconOptionsFromText } from '../../engine/decon/config.js';
import type { DeconOptions } from '../../engine/decon/run.js';
import { tokensOptions } from '../../engine/cli/tokens.js';
import { AssayError } from '../../engine/errors.js';
import { RecipeError } from '../../engine/mix/config.js';
import { tagSettingsFromText } from '../../engine/tag/config-file.js';
import type { TaggerRequest } from '../../engine/tag/runtime.js';
import type { TokensOptions } from '../../engine/tokenize/runtime.js';
import { warcOptionsFromText, type WarcConfig } from '../../engine/warc/config.js';
import { HostError } from '../errors.js';

export { checkPlanPaths } from './plan-paths.js';

/** What `assay tag -c` resolves a tag config or a recipe's tagger preset to (workers/engine/cli/tag.ts). */
export interface TagPlan {
  documents: string[];
  taggers: TaggerRequest[];
  experiment?: string;
  processes?: number;
  ignoreExisting?: boolean;
  skipExisting?: boolean;
  seed?: number;
}

export type JobPlan =
  | { kind: 'tag'; tag: TagPlan }
  | { kind: 'dedupe'; dedupe: DedupeConfig }
  | { kind: 'minhash'; minhash: MinhashConfig }
  | { kind: 'mix'; mix: MixerConfig }
  | { kind: 'tokens'; tokens: TokensOptions }
  | { kind: 'index' }
  | { kind: 'import'; import: ImportConfig }
  | { kind: 'warc'; warc: WarcConfig & { documents: string[]; destination: string } }
  | { kind: 'preview'; recipeText: string; recipePath: string }
  | { kind: 'decon'; decon: Omit<DeconOptions, 'cwd'> };

/** How inline config text is named (errors name the parameter), and the folder it is kept in once accepted. */
export const INLINE_CONFIG = 'configText';
export const INLINE_CONFIG_DIR = '.assay/runs';

/** `env` is what `${oc.env:…}` reads: the app passes only the workspace's allowed variables (the job process has no others). */
const ctx = (env: NodeJS.ProcessEnv = process.env): { env: NodeJS.ProcessEnv; cpuCount: number } => ({ env, cpuCount: cpus().length });

function parsed<T>(r: { ok: true; config: T } | { ok: false; issues: ConstructorParameters<typeof RecipeError>[1] }, path: string): T {
  if (!r.ok) throw new RecipeError(path, r.issues);
  return r.config;
}

function tagPlan(text: string, path: string, env?: NodeJS.ProcessEnv): TagPlan {
  const c = tagSettingsFromText(text, path, env);
  // Custom tagger modules are code: a config from the app never runs code (DESIGN §7); the CLI can.
  if (c.taggerModules?.length) throw new HostError('FORBIDDEN', 'tagger_modules run code and are refused from the app; run `assay tag -c` in a terminal to use them', 'tagger_modules');
  const taggers = c.requests ?? (c.taggers ?? []).map((name) => ({ name, options: c.options[name] }));
  return {
    documents: c.documents ?? [],
    taggers,
    ...(c.experiment !== undefined && { experiment: c.experiment }),
    ...(c.processes !== undefined && { processes: c.processes }),
    ...(c.ignoreExisting !== undefined && { ignoreExisting: c.ignoreExisting }),
    ...(c.skipExisting !== undefined && { skipExisting: c.skipExisting }),
    ...(c.seed !== undefined && { seed: c.seed }),
  };
}

/** Parses the config text of a job (`path` names it in errors). */
export function planJob(kind: JobKind, text: string, path: string, env?: NodeJS.ProcessEnv): JobPlan {
  switch (kind) {
    case 'tag':
      return { kind, tag: tagPlan(text, path, env) };
    case 'dedupe':
      return { kind, dedupe: parsed(parseConfigText(text, dedupeConfig, ctx(env), 'a dedupe config must be a mapping with `documents`, `dedupe` and `bloom_filter`'), path) };
    case 'minhash':
      return { kind, minhash: parsed(parseConfigText(text, minhashConfig, ctx(env), 'a minhash config must be a mapping with `documents` and `name`'), path) };
    case 'mix':
      return { kind, mix: parsed(parseRecipe(text, ctx(env)), path) };
    case 'index':
      return { kind };
    case 'tokens':
      return { kind, tokens: tokensPlan(text, path, env) };
    case 'import':
      return { kind, import: parsed(parseConfigText(text, importConfig, ctx(env), 'an import config must be a mapping with `documents`'), path) };
    case 'warc':
      return { kind, warc: warcPlan(text, path) };
    case 'preview':
      // Refused here, before a process starts, as a mix job of the same recipe would be; the engine reads the text itself.
      parsed(parseRecipe(text, ctx(env)), path);
      return { kind, recipeText: text, recipePath: path };
    case 'decon':
      // Inline text goes into .assay/runs/ once accepted: its default index goes beside it there, checked and run alike.
      return { kind, decon: deconOptionsFromText(text, path, env, path === INLINE_CONFIG ? INLINE_CONFIG_DIR : dirname(path)) };
  }
}

/** The CLI's own resolution of a tokens config (no flags): what `assay tokens -c` would run. */
function tokensPlan(text: string, path: string, env?: NodeJS.ProcessEnv): TokensOptions {
  const c = parsed(parseConfigText(text, tokensConfig, ctx(env)), path);
  try {
    return tokensOptions({ command: 'tokens', options: new Map(), positionals: [] }, c);
  } catch (e) {
    if (e instanceof UsageError) throw new AssayError('CONFIG', e.message, { file: path });
    throw e;
  }
}

/** What `assay warc -c` reads; from the app the documents go into the workspace itself unless the config names a folder. */
function warcPlan(text: string, path: string): Extract<JobPlan, { kind: 'warc' }>['warc'] {
  const c = warcOptionsFromText(text, path);
  if (!c.documents?.length) throw new AssayError('CONFIG', 'a warc config needs `documents` (WARC files or globs)', { file: path, field: 'documents' });
  return { ...c, documents: c.documents, destination: c.destination ?? '.' };
}
