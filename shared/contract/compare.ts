// Comparing the edited recipe with another (the saved file, another recipe, a past run's): params, result and the table's change filter.
import { z } from 'zod';
import type { DiffSide, FateChange, RecipeDiffResult } from './preview.js';

const path = z.string().min(1).max(4096);
const text = z.string().max(4 * 1024 * 1024);

export const fateChange = z.enum(['kept→dropped', 'dropped→kept', 'rule changed', 'outside→kept', 'outside→dropped', 'kept→outside', 'dropped→outside'] as const satisfies readonly FateChange[]);

/**
 * What the edited recipe is compared with: a text (e.g. the saved file's, as the app holds it), a recipe file of
 * the workspace (the open one's path = the saved version on disk), or a past mix run, by its output folder or
 * manifest: the recipe recorded in its `.assay/manifest.json` (`config`, as given to the run).
 */
export const compareAgainst = z.union([
  z.object({ text, label: z.string().max(200).optional() }).strict(),
  z.object({ recipe: path }).strict(),
  z.object({ run: path }).strict(),
]);
export type CompareAgainst = z.infer<typeof compareAgainst>;

/** The documents of one diff group (`DiffGroup`: stream, change, the dropping rules on each side). */
export const diffGroupKey = z.object({ stream: z.string(), change: fateChange, fromRule: z.number().int().min(0).optional(), toRule: z.number().int().min(0).optional() }).strict();
export type DiffGroupKey = z.infer<typeof diffGroupKey>;

/**
 * A document page under comparison (`DocumentQuery.compare`): every row carries its change from `oldText` to the
 * query's `recipeText` (`DocumentRow.change`); `change` keeps only changed documents (any change, or one kind),
 * `group` only one diff group's.
 */
export const compareQuery = z
  .object({ oldText: text, change: z.union([z.literal('any'), fateChange]).optional(), group: diffGroupKey.optional() })
  .strict();
export type CompareQuery = z.infer<typeof compareQuery>;

/** What the compared-with recipe was: its text (what later pages are asked under) and a name for people. */
export interface CompareBaseline {
  kind: 'text' | 'recipe' | 'run';
  label: string;
  text: string;
  /** Workspace-relative recipe file or run folder, when there is one. */
  path?: string;
  /** For a run: when it ended (the manifest's `run.ended`). */
  ended?: string;
}

export interface RecipeCompareResult extends RecipeDiffResult {
  baseline: CompareBaseline;
}

/** A document's fate change (old → new) in one stream, as a table row shows it. */
export interface DocumentChange {
  stream: string;
  change: FateChange;
  from: DiffSide;
  to: DiffSide;
}
