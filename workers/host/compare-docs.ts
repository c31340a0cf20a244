// Changed documents as table pages and exports: the engine's recipe diff (every id) composed with its document pages, where the engine runs.
import type { CompareQuery, DiffGroup, DocumentChange, DocumentPage, DocumentQuery } from '../../shared/contract/index.js';
import { HostError } from './errors.js';
import type { PreviewEngineLike } from './index-service.js';

/** Every changed document of one comparison: the diff's groups with all their ids, and each id's change. */
interface ChangeSet {
  groups: DiffGroup[];
  byId: Map<string, DocumentChange>;
}

/** Per engine, the last few comparisons (old text, new text): paging and scrolling ask for the same one again and again. */
const caches = new WeakMap<PreviewEngineLike, Map<string, ChangeSet>>();
const KEEP = 4;

/** After a reload or an environment change the same texts may mean other fates: forget every comparison. */
export function forgetComparisons(engine: PreviewEngineLike): void {
  caches.delete(engine);
}

function changeSet(engine: PreviewEngineLike, oldText: string, newText: string): ChangeSet {
  let cache = caches.get(engine);
  if (cache === undefined) caches.set(engine, (cache = new Map()));
  const key = `${oldText}\u0000${newText}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  // Samples as many as there are documents: every changed id, in index order within its group.
  const d = engine.diff(oldText, newText, { oldPath: 'compared recipe', samples: Number.MAX_SAFE_INTEGER });
  const byId = new Map<string, DocumentChange>();
  for (const g of d.groups) for (const id of g.sampleIds) if (!byId.has(id)) byId.set(id, { stream: g.stream, change: g.change, from: g.from, to: g.to });
  const set = { groups: d.groups, byId };
  cache.set(key, set);
  while (cache.size > KEEP) cache.delete(cache.keys().next().value as string);
  return set;
}

/** The ids `compare` keeps (null: every document, rows only annotated). */
function selectedIds(set: ChangeSet, c: CompareQuery): string[] | null {
  if (c.change === undefined && c.group === undefined) return null;
  const g = c.group;
  const groups = set.groups.filter(
    (x) =>
      (c.change === undefined || c.change === 'any' || x.change === c.change) &&
      (g === undefined || (x.stream === g.stream && x.change === g.change && x.from.rule === g.fromRule && x.to.rule === g.toRule)),
  );
  return [...new Set(groups.flatMap((x) => x.sampleIds))];
}

type Query = Omit<DocumentQuery, 'offset' | 'limit'>;

/** The query without `compare`, narrowed to the changed ids it selects. */
function narrowed(engine: PreviewEngineLike, q: Query): { rest: Query; set: ChangeSet; ids: string[] | null } {
  const { compare, ...rest } = q;
  if (compare === undefined) return { rest, set: { groups: [], byId: new Map() }, ids: null };
  if (rest.recipeText === undefined) throw new HostError('BAD_REQUEST', 'compare: comparing needs recipeText (the recipe being edited)', 'compare');
  const set = changeSet(engine, compare.oldText, rest.recipeText);
  let ids = selectedIds(set, compare);
  if (ids !== null && rest.ids !== undefined) {
    const asked = new Set(rest.ids);
    ids = ids.filter((id) => asked.has(id));
  }
  return { rest, set, ids };
}

/** Only paging and columns: the changed ids can be paged here, without the engine looking every one of them up. */
const plain = (q: Query): boolean =>
  Object.keys(q).every((k) => k === 'recipeText' || k === 'columns' || k === 'ids') && q.ids === undefined;

/**
 * A page of the table under comparison: each row with its change; with `change`/`group`, only those documents
 * (in diff group order when nothing else filters or sorts, else in the engine's order).
 */
export function comparePage(engine: PreviewEngineLike, q: DocumentQuery): DocumentPage {
  const { offset, limit, ...query } = q;
  const { rest, set, ids } = narrowed(engine, query);
  let page: DocumentPage;
  if (ids !== null && plain(rest)) {
    const slice = ids.slice(offset, offset + limit);
    const got = slice.length === 0 ? [] : engine.documentsPage({ ...rest, ids: slice, offset: 0, limit: slice.length }).rows;
    const byId = new Map(got.map((r) => [r.id, r]));
    page = { total: ids.length, offset, rows: slice.flatMap((id) => byId.get(id) ?? []) };
  } else page = engine.documentsPage({ ...rest, ...(ids !== null && { ids }), offset, limit });
  for (const r of page.rows) {
    const c = set.byId.get(r.id);
    if (c !== undefined) r.change = c;
  }
  return page;
}

/** An export under comparison: the changed documents the query selects (a plain export without `compare`). */
export function compareExport(engine: PreviewEngineLike, q: Query, format: 'csv' | 'jsonl', path: string): { rows: number; bytes: number } {
  const { rest, ids } = narrowed(engine, q);
  return engine.exportDocuments({ ...rest, ...(ids !== null && { ids }) }, format, path);
}

/** Host-side methods served where the engine runs (the preview worker, or in-process), next to the engine's own. */
export const composed = {
  comparePage,
  compareExport,
} as const;

export type ComposedMethods = { [K in keyof typeof composed]: (typeof composed)[K] extends (e: PreviewEngineLike, ...a: infer A) => infer R ? (...a: A) => R : never };

export const isComposed = (name: string): name is keyof typeof composed => Object.hasOwn(composed, name);
