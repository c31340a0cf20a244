// `decon.report` and `decon.items`: the contamination report over the workspace's indexed documents, and eval item texts for the inspector.
import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { DeconItemText, DeconReport, Params } from '../../shared/contract/index.js';
import { attributeFolders, deconReport, mergeItems, parseRef, indexTokenLookup, readEvalItems, writeDeconReport, type EvalItems } from '../engine/decon/report/index.js';
import { attributePathFor } from '../engine/io/index.js';
import { attributeSetFolder } from '../engine/manifest/write.js';
import { HostError } from './errors.js';
import type { IndexService } from './index-service.js';
import { resolveInside } from './paths.js';

const rel = (root: string, p: string): string => relative(root, p).split(sep).join('/');
const isFile = (p: string): Promise<boolean> => stat(p).then((s) => s.isFile(), () => false);

/** Items files by path, re-read when their size or mtime changes (the inspector asks on every document). */
const itemsCache = new Map<string, { key: string; items: EvalItems | null }>();
async function itemsOf(folder: string): Promise<EvalItems | null> {
  const st = await stat(`${folder}/.assay/decon-items.json`).catch(() => null);
  const key = st ? `${st.size}:${st.mtimeMs}` : 'none';
  const hit = itemsCache.get(folder);
  if (hit?.key === key) return hit.items;
  const items = await readEvalItems(folder);
  itemsCache.set(folder, { key, items });
  return items;
}

/** The report over every indexed documents file with decon attributes in `attributes/<set>/`. */
export async function hostDeconReport(root: string, index: IndexService, p: Params<'decon.report'>): Promise<DeconReport & { written: string[] }> {
  if (!index.built) throw new HostError('NOT_FOUND', 'this workspace has no attribute index yet: run an index job (or `assay index`) first; the report reads the indexed documents files');
  const set = p.set ?? p.name;
  const files: string[] = [];
  for (const f of (await index.info()).files) {
    const doc = resolveInside(root, f.path, 'documents');
    if (doc.includes('/documents/') && (await isFile(resolveInside(root, rel(root, attributePathFor(doc, set)), 'attributes')))) files.push(doc);
  }
  if (files.length === 0) throw new HostError('NOT_FOUND', `no indexed documents file has decon attributes in attributes/${set}/: run assay decon with --name ${p.name} first`, 'name');
  const folders = attributeFolders(files, set);
  const items = mergeItems((await Promise.all(folders.map(itemsOf))).filter((x): x is EvalItems => x !== null));
  // Exact counts from the index (`assay index --tokenizer`) for files indexed at their present size; else ⌈bytes/4⌉.
  const tokens = indexTokenLookup(root, index.engine());
  const report = await deconReport({ files, name: p.name, attributeSet: set, items, tokens, ...(p.top !== undefined && { top: p.top }), show: (f) => rel(root, f) });
  const written: string[] = [];
  if (p.write) for (const folder of folders) written.push(rel(root, (await writeDeconReport(folder, report)).path));
  return { ...report, written };
}

/** The texts of `refs` from the items file beside the attributes of `file` (a documents file); null for items it does not hold. */
export async function hostDeconItems(root: string, p: Params<'decon.items'>): Promise<DeconItemText[]> {
  const doc = resolveInside(root, p.file, 'file');
  const folder = resolveInside(root, rel(root, attributeSetFolder(attributePathFor(doc, p.set), p.set)), 'set');
  const items = await itemsOf(folder);
  return p.refs.map((ref) => {
    const { set, id } = parseRef(ref);
    return { ref, set, id, text: items?.text(set, id) ?? null };
  });
}
