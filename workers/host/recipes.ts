// Recipe files of a workspace: discovery for the file picker, and reads/writes confined to the workspace (writes are atomic).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../engine/io/index.js';
import { HostError } from './errors.js';
import { resolveInside } from './paths.js';

const RECIPE_EXT = new Set(['.yaml', '.yml', '.json']);
/** Data folders hold documents and attributes, never recipes; walking them would cost seconds on a big corpus. */
const SKIP_DIRS = new Set(['documents', 'attributes', 'node_modules', 'output', 'outputs']);
const MAX_BYTES = 4 * 1024 * 1024;

const looksLikeRecipe = (text: string): boolean => /^streams\s*:/m.test(text) || /"streams"\s*:/.test(text);

/** Mixer recipes (files with a top-level `streams`) up to `depth` folders below the root, sorted. */
export function findRecipes(root: string, depth = 3): string[] {
  const found: string[] = [];
  const walk = (dir: string, level: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (level < depth && !SKIP_DIRS.has(name)) walk(path, level + 1);
      } else if (RECIPE_EXT.has(extname(name)) && st.size < 1024 * 1024) {
        try {
          if (looksLikeRecipe(readFileSync(path, 'utf8'))) found.push(relative(root, path).split(sep).join('/'));
        } catch {
          /* unreadable: not offered */
        }
      }
    }
  };
  walk(root, 0);
  return found.sort();
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

/** Only recipe-like files, and never inside the workspace's own `.assay/` state: the app cannot overwrite data with a recipe. */
export async function writeRecipe(root: string, path: string, text: string): Promise<{ path: string; bytes: number }> {
  const abs = resolveInside(root, path);
  if (!RECIPE_EXT.has(extname(abs))) throw new HostError('FORBIDDEN', `path: recipes are .yaml, .yml or .json files, not '${path}'`, 'path');
  const r = rel(root, abs);
  if (r === '.assay' || r.startsWith('.assay/')) throw new HostError('FORBIDDEN', `path: '${path}' is inside the workspace's .assay/ state folder`, 'path');
  await writeFileAtomic(abs, text, { mkdir: true });
  return { path: r, bytes: Buffer.byteLength(text) };
}
