// The eval items file beside decon attributes (`attributes/<set>/.assay/decon-items.json`): per eval set its item count and item texts.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../io/index.js';
import { join } from 'node:path';
import { z } from 'zod';
import { AssayError } from '../../errors.js';

export const ITEMS_SCHEMA = 'assay.decon-items';

/**
 * `count` is the number of items in the eval set (what the contamination fraction divides by); when absent, every
 * item is listed in `items`. `items` maps item id → the text the n-grams were taken from (at least every item a
 * document hits, for the report's top items and the inspector).
 */
const itemsFile = z
  .object({
    schema: z.literal(ITEMS_SCHEMA),
    version: z.literal(1),
    sets: z.record(z.string(), z.object({ count: z.number().int().nonnegative().optional(), items: z.record(z.string(), z.string()) })),
  })
  .passthrough();

export interface EvalItems {
  /** The file read. */
  path: string;
  /** Items per eval set. */
  counts: Map<string, number>;
  text(set: string, id: string): string | null;
}

export const itemsPath = (attributeFolder: string): string => join(attributeFolder, '.assay', 'decon-items.json');

/** Splits `"<set>:<item_id>"` at its first colon (item ids may hold colons, set names do not). */
export function parseRef(ref: string): { set: string; id: string } {
  const at = ref.indexOf(':');
  return at < 0 ? { set: ref, id: '' } : { set: ref.slice(0, at), id: ref.slice(at + 1) };
}

/** The eval items of an attribute folder, or null when it has no items file; a damaged one is a CONFIG error naming it. */
export async function readEvalItems(attributeFolder: string): Promise<EvalItems | null> {
  const path = itemsPath(attributeFolder);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AssayError('IO', `cannot read the eval items file: ${(e as Error).message}`, { file: path });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new AssayError('CONFIG', `eval items file is not JSON: ${(e as Error).message}`, { file: path });
  }
  const r = itemsFile.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new AssayError('CONFIG', `not an eval items file (${ITEMS_SCHEMA} v1): ${(issue?.path ?? []).join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`, { file: path });
  }
  const sets = r.data.sets;
  return {
    path,
    counts: new Map(Object.entries(sets).map(([s, v]) => [s, v.count ?? Object.keys(v.items).length])),
    text: (set, id) => (Object.hasOwn(sets, set) && Object.hasOwn(sets[set]!.items, id) ? sets[set]!.items[id]! : null),
  };
}

/**
 * Writes the items file from what the decon index holds (`DeconIndex.sets` and `.items`, keys `"<set>:<item_id>"`),
 * atomically: `assay decon` calls it for the attribute folder it writes, so the report and the inspector have the
 * item counts and texts. A file that already holds the same is left alone: a cluster run writes it when planning,
 * and its tasks, which would otherwise all replace one file at once, find it done.
 */
export async function writeEvalItemsFile(attributeFolder: string, index: { sets: readonly { name: string; items: number }[]; items: readonly { key: string; text: string }[] }): Promise<string> {
  const sets: Record<string, { count: number; items: Record<string, string> }> = {};
  for (const s of index.sets) sets[s.name] = { count: s.items, items: {} };
  for (const it of index.items) {
    const r = parseRef(it.key);
    (sets[r.set] ??= { count: 0, items: {} }).items[r.id] = it.text;
  }
  const path = itemsPath(attributeFolder);
  const text = JSON.stringify({ schema: ITEMS_SCHEMA, version: 1, sets }) + '\n';
  if ((await readFile(path, 'utf8').catch(() => null)) !== text) await writeFileAtomic(path, text, { mkdir: true });
  return path;
}
