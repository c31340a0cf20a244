// What a template needs to know about the workspace: how its documents are named, and how paths read from where configs run.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TemplateContext {
  /** The dataset folder (holds documents/ and attributes/), absolute. */
  workspace: string;
  /**
   * Where the config's relative paths resolve when it runs: the app's jobs run at the workspace root; the CLI
   * runs in its working directory (`assay init … --workspace DIR` writes paths relative to that).
   */
  base: string;
  /** The workspace's attribute catalogue (from its index), for the catalogue recipe; empty when not indexed. */
  catalogue: readonly { key: string; set: string; kind: 'document' | 'spans'; docs: number; min: number | null; max: number | null; quantiles: { p: number; value: number }[]; tagger?: string }[];
}

/** `/`-separated path of `abs` relative to the config's base ('.' for the base itself). */
export function fromBase(ctx: TemplateContext, abs: string): string {
  const r = relative(ctx.base, abs).split(sep).join('/');
  return r === '' ? '.' : r;
}

/** `<workspace>/<rel>` as the config writes it. */
export const inWorkspace = (ctx: TemplateContext, rel: string): string => {
  const w = fromBase(ctx, ctx.workspace);
  return w === '.' ? rel : `${w}/${rel}`;
};

const DOC_EXT = /\.(jsonl?|json)(\.(gz|zst|zstd))?$/;
const LIMIT = 10_000;

/**
 * Globs for the workspace's documents, one per file extension found (`documents/*.jsonl.gz`, or
 * `documents/**\/*.json.gz` when files sit in subfolders); Dolma's `*.jsonl.gz` when there are none yet.
 */
export function documentGlobs(ctx: TemplateContext): string[] {
  const root = join(ctx.workspace, 'documents');
  const exts = new Set<string>();
  let nested = false;
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let list;
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of list) {
      if (seen++ > LIMIT || d.name.startsWith('.')) continue;
      if (d.isDirectory() && depth < 6) walk(join(dir, d.name), depth + 1);
      else if (d.isFile() && !d.name.endsWith('.tmp')) {
        const m = DOC_EXT.exec(d.name);
        if (m === null) continue;
        exts.add(m[0]);
        if (depth > 0) nested = true;
      }
    }
  };
  walk(root, 0);
  const list = exts.size > 0 ? [...exts].sort() : ['.jsonl.gz'];
  return list.map((e) => inWorkspace(ctx, `documents/${nested ? '**/' : ''}*${e}`));
}

/** The repository's `configs/` (the shipped presets), found from this module wherever it runs: sources, the bundle, or through `npm link`. */
export function presetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'configs', 'fineweb.yaml')) && existsSync(join(dir, 'package.json'))) return join(dir, 'configs');
    dir = dirname(dir);
  }
  throw new Error('the shipped presets (configs/fineweb.yaml) are missing from this installation');
}
