// `documents.export`: the filtered table (every row) written to a workspace file by the engine, the path confined here first.
import { mkdirSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { ExportResult, Params } from '../../shared/contract/index.js';
import { HostError } from './errors.js';
import type { IndexService } from './index-service.js';
import { resolveInside } from './paths.js';

/** The dataset and Assay's own state are never export targets: an export must not overwrite what it reads. */
const PROTECTED = ['.assay', 'documents', 'attributes'];

export async function exportDocuments(root: string, index: IndexService, p: Params<'documents.export'>): Promise<ExportResult> {
  const abs = resolveInside(root, p.path);
  const rel = relative(root, abs).split(sep).join('/');
  const top = rel.split('/')[0] as string;
  if (rel === '' || PROTECTED.includes(top)) throw new HostError('FORBIDDEN', `path: '${p.path}' is inside ${top === '' ? 'nothing (the workspace itself)' : `${top}/`}; export to a file elsewhere in the workspace`, 'path');
  try {
    mkdirSync(dirname(abs), { recursive: true });
  } catch (e) {
    throw new HostError('BAD_REQUEST', `path: cannot create the folder for '${p.path}': ${(e as Error).message}`, 'path');
  }
  // Under comparison: the changed documents the query selects (composed with the recipe diff where the engine runs).
  const r = p.query.compare !== undefined ? await index.engine().compareExport(p.query, p.format, abs) : await index.engine().exportDocuments(p.query, p.format, abs);
  return { path: rel, rows: r.rows, bytes: r.bytes };
}
