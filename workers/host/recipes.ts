// Config files of a workspace: discovery by schema (every job kind) for the pickers, and reads/writes confined to the workspace (writes are atomic).
import { readdirSync, readFileSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { JobKind } from '../../shared/contract/index.js';
import { writeFileAtomic } from '../engine/io/index.js';
import { HostError } from './errors.js';
import { planJob } from './jobs/plan.js';
import { isInside, resolveInside } from './paths.js';

const RECIPE_EXT = new Set(['.yaml', '.yml', '.json']);
/** Data folders hold documents, attributes and outputs, never configs; walking them would cost seconds on a big corpus. */
const SKIP_DIRS = new Set(['documents', 'attributes', 'node_modules', 'output', 'outputs']);
const MAX_BYTES = 4 * 1024 * 1024;
/**
 * Bounds of discovery: deeper folders, bigger files, and files past the counts are not offered (a config is
 * small and near the top; a folder of a million shards must not stall the app).
 */
const LIMITS = { depth: 4, bytes: 1024 * 1024, files: 10_000, entries: 50_000 };
const KINDS: readonly Exclude<JobKind, 'index'>[] = ['mix', 'tag', 'dedupe', 'minhash', 'tokens', 'decon'];

export interface FoundConfig {
  path: string;
  /** Empty for a recipe that does not parse yet (still offered to open, never to run). */
  kinds: JobKind[];
  /** A mixer recipe: it parses as one, or has a top-level `streams` and is being written. */
  recipe: boolean;
}

/** Kinds per file, kept while the file's size and mtime (and the allowed env) stay the same: parsing is the slow part. */
const cache = new Map<string, { key: string; kinds: JobKind[]; recipe: boolean }>();

/**
 * A recipe that does not parse yet is still a recipe the user is editing: a top-level `streams` in YAML, or
 * in JSON that parses (JSON that does not parse: a `"streams"` key anywhere). Dolma's `inline-cases.json`,
 * whose recipes sit inside test cases, is not one.
 */
function looksLikeRecipe(text: string, path: string): boolean {
  if (!path.endsWith('.json')) return /^streams\s*:/m.test(text);
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, 'streams');
  } catch {
    return /"streams"\s*:/.test(text);
  }
}

/**
 * Every kind's config has a top-level `streams` (mix) or `documents` (the others): files without either are
 * no config, and are skipped before any schema parses them (a folder of JSON metadata would cost seconds).
 */
const CANDIDATE = /^(streams|documents)\s*:|"(streams|documents)"\s*:/m;

/** The job kinds a config text can run, each recognised by that kind's own schema (what `jobs.start` would accept). */
export function kindsOf(text: string, path: string, env: NodeJS.ProcessEnv): JobKind[] {
  if (!CANDIDATE.test(text)) return [];
  return KINDS.filter((kind) => {
    try {
      planJob(kind, text, path, env);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Every config file (`.yaml`/`.yml`/`.json`) up to a few folders below the root, with the kinds it runs, sorted
 * (and recipes that do not parse yet, with no kinds).
 * Symbolic links are followed only where they stay inside the workspace.
 */
export function findConfigs(root: string, env: NodeJS.ProcessEnv = {}): FoundConfig[] {
  const found: FoundConfig[] = [];
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return [];
  }
  const envKey = JSON.stringify(Object.entries(env).sort());
  const seenDirs = new Set<string>();
  let budget = LIMITS.files;
  let entries = LIMITS.entries;
  // Breadth first: configs sit near the top, so the limits cut the deep (data-like) end of the tree.
  const queue: { dir: string; level: number }[] = [{ dir: root, level: 0 }];
  const walk = (dir: string, level: number): void => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch {
      return;
    }
    // A link back up the tree (or twice to one folder) is walked once.
    if (!isInside(realRoot, real) || seenDirs.has(real)) return;
    seenDirs.add(real);
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return;
    }
    for (const d of list) {
      const name = d.name;
      if (name.startsWith('.') || budget <= 0 || entries-- <= 0) continue;
      const path = join(dir, name);
      let isDir = d.isDirectory();
      if (d.isSymbolicLink()) {
        // Followed only when it resolves inside the workspace (issue 12.7): a link must not widen what the app reads.
        try {
          if (!isInside(realRoot, realpathSync(path))) continue;
          isDir = statSync(path).isDirectory();
        } catch {
          continue;
        }
      } else if (!isDir && !d.isFile()) continue;
      if (isDir) {
        if (level < LIMITS.depth && !SKIP_DIRS.has(name)) queue.push({ dir: path, level: level + 1 });
        continue;
      }
      if (!RECIPE_EXT.has(extname(name))) continue;
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      if (!st.isFile() || st.size > LIMITS.bytes) continue;
      budget--;
      const rel = relative(root, path).split(sep).join('/');
      const key = `${st.size}:${st.mtimeMs}:${envKey}`;
      let hit = cache.get(path);
      if (hit?.key !== key) {
        let kinds: JobKind[] = [];
        let recipe = false;
        try {
          const text = readFileSync(path, 'utf8');
          kinds = kindsOf(text, rel, env);
          recipe = kinds.includes('mix') || looksLikeRecipe(text, rel);
        } catch {
          /* unreadable: not offered */
        }
        cache.set(path, (hit = { key, kinds, recipe }));
      }
      if (hit.kinds.length > 0 || hit.recipe) found.push({ path: rel, kinds: hit.kinds, recipe: hit.recipe });
    }
  };
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) walk(next.dir, next.level);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Mixer recipes among the configs (what the recipe picker offers), those still being written included. */
export function findRecipes(root: string, env: NodeJS.ProcessEnv = {}): string[] {
  return findConfigs(root, env).filter((c) => c.recipe).map((c) => c.path);
}

const rel = (root: string, abs: string): string => relative(root, abs).split(sep).join('/');

export async function readRecipe(root: string, path: string): Promise<{ path: string; text: string }> {
  const abs = resolveInside(root, path);
  let size: number;
  try {
    const st = statSync(abs);
    if (!st.isFile()) throw new HostError('BAD_REQUEST', `path: '${path}' is not a file`, 'path');
    size = st.size;
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError('NOT_FOUND', `path: '${path}' does not exist`, 'path');
  }
  if (size > MAX_BYTES) throw new HostError('BAD_REQUEST', `path: '${path}' is larger than 4 MB; not a recipe`, 'path');
  return { path: rel(root, abs), text: await readFile(abs, 'utf8') };
}

/**
 * Only recipe-like files, and never inside the workspace's own `.assay/` state: the app cannot overwrite data with a
 * recipe. `expect` (the text the editor last read or wrote): refused when the file now holds other text; `create`:
 * refused when the file exists.
 */
export async function writeRecipe(root: string, path: string, text: string, opts: { expect?: string | undefined; create?: boolean | undefined } = {}): Promise<{ path: string; bytes: number }> {
  const abs = resolveInside(root, path);
  if (!RECIPE_EXT.has(extname(abs))) throw new HostError('FORBIDDEN', `path: recipes are .yaml, .yml or .json files, not '${path}'`, 'path');
  const r = rel(root, abs);
  if (r === '.assay' || r.startsWith('.assay/')) throw new HostError('FORBIDDEN', `path: '${path}' is inside the workspace's .assay/ state folder`, 'path');
  const { expect, create } = opts;
  if (expect !== undefined || create) {
    const now = await readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
    if (now !== null && create) throw new HostError('CONFLICT', `'${r}' already exists`, 'path');
    // Read as recipe.read reads it, so an unchanged file always compares equal.
    if (now !== null && now !== expect) throw new HostError('CONFLICT', `'${r}' changed on disk since the editor read it: reload it to take that version, or overwrite it with yours`, 'path');
  }
  await writeFileAtomic(abs, text, { mkdir: true });
  return { path: r, bytes: Buffer.byteLength(text) };
}
