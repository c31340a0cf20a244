// What the edited recipe is compared with, as text: a given text, a workspace recipe file, or the recipe a past mix run recorded in its manifest.
import { relative, sep } from 'node:path';
import type { CompareAgainst, CompareBaseline } from '../../shared/contract/index.js';
import { isAssayError } from '../engine/errors.js';
import { folderOf, resolveManifest } from '../engine/manifest/read.js';
import { HostError } from './errors.js';
import { resolveInside } from './paths.js';
import { readRecipe } from './recipes.js';

const rel = (root: string, abs: string): string => relative(root, abs).split(sep).join('/') || '.';

/**
 * The baseline's text. A run is named by its output folder (or its manifest file) inside the workspace; its recipe
 * is the manifest's `config` as the run was given it, written back as JSON (which is YAML), so relative paths
 * resolve against the workspace root as the app's jobs ran them.
 */
export async function resolveAgainst(root: string, against: CompareAgainst): Promise<CompareBaseline> {
  if ('text' in against) return { kind: 'text', label: against.label ?? 'the given text', text: against.text };
  if ('recipe' in against) {
    const r = await readRecipe(root, against.recipe);
    return { kind: 'recipe', label: r.path, text: r.text, path: r.path };
  }
  const abs = resolveInside(root, against.run, 'against.run');
  let loaded;
  try {
    loaded = await resolveManifest(abs);
  } catch (e) {
    // The engine's message names the manifest it looked for; shown workspace-relative.
    if (isAssayError(e)) throw new HostError('NOT_FOUND', `against.run: ${e.message.split(root + sep).join('')}`, 'against.run');
    throw e;
  }
  const m = loaded.manifest;
  const folder = rel(root, folderOf(loaded.path));
  if (m.stage !== 'mix') throw new HostError('BAD_REQUEST', `against.run: ${folder} holds the manifest of a ${m.stage} run, which has no recipe (choose a mix run's output folder)`, 'against.run');
  if (m.config === null || typeof m.config !== 'object') throw new HostError('BAD_REQUEST', `against.run: the manifest of ${folder} records no recipe`, 'against.run');
  return { kind: 'run', label: `run → ${folder} (${m.run.ended})`, text: `${JSON.stringify(m.config, null, 2)}\n`, path: folder, ended: m.run.ended };
}
