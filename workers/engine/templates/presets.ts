// The shipped presets (configs/fineweb.yaml, configs/dolma-c4.yaml) with their `dataset/…` paths rewritten for a workspace.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentGlobs, fromBase, presetsDir, type TemplateContext } from './layout.js';

/** What the shipped files assume: run from the folder holding `dataset/documents/*.jsonl.gz`. */
const PRESET_GLOB = 'dataset/documents/*.jsonl.gz';

/**
 * The preset's text with every documents glob pointed at the workspace's own files (one list item per
 * extension found), and other `dataset/` mentions (comments) at the workspace as seen from the base.
 * Outputs stay where the preset puts them, relative to the base (`output/fineweb`).
 */
export function renderPreset(file: string, ctx: TemplateContext): string {
  const text = readFileSync(join(presetsDir(), file), 'utf8');
  const globs = documentGlobs(ctx);
  const lines = text.split('\n').flatMap((line) => {
    const m = /^(\s*-\s+)(["']?)dataset\/documents\/\*\.jsonl\.gz\2\s*$/.exec(line);
    return m ? globs.map((g) => `${m[1]}${g}`) : [line];
  });
  const ws = fromBase(ctx, ctx.workspace);
  const out = lines.join('\n').replaceAll(PRESET_GLOB, globs[0] as string);
  return ws === 'dataset' ? out : out.replace(/(^|[\s`(])dataset\//gm, (_m, pre: string) => `${pre}${ws === '.' ? '' : `${ws}/`}`);
}
