// `assay decon report` as a library call: documents globs → the report over them, saved into each attribute folder they map to.
import { resolve } from 'node:path';
import type { DeconReport } from '../../../../shared/contract/decon.js';
import { AssayError } from '../../errors.js';
import { attributePathFor, expandGlobs } from '../../io/index.js';
import { attributeSetFolder } from '../../manifest/write.js';
import { readEvalItems, type EvalItems } from './items.js';
import { deconReport, type ReportOptions } from './report.js';
import { writeDeconReport, type WrittenReport } from './write.js';

export { parseRef, readEvalItems, itemsPath, writeEvalItemsFile, type EvalItems } from './items.js';
export { deconReport, type TokenLookup } from './report.js';
export { reportPathFor, writeDeconReport, type WrittenReport } from './write.js';

export interface RunReportOptions extends Omit<ReportOptions, 'files' | 'items'> {
  /** Documents globs (relative ones against `cwd`). */
  documents: readonly string[];
  cwd?: string;
  /** Save the report (and list it in the run manifest); default true. */
  write?: boolean;
  /** Notes for the user (a folder link `**` does not follow). */
  log?: (line: string) => void;
}

/** The attribute folders (`…/attributes/<set>`) the documents files map to, in order. */
export function attributeFolders(files: readonly string[], set: string): string[] {
  return [...new Set(files.map((f) => attributeSetFolder(attributePathFor(f, set), set)))];
}

/** Item counts and texts of several folders (several dataset roots): for each set, the first folder that lists it. */
export function mergeItems(list: readonly EvalItems[]): EvalItems | null {
  if (list.length <= 1) return list[0] ?? null;
  const counts = new Map<string, number>();
  for (const l of list) for (const [s, n] of l.counts) if (!counts.has(s)) counts.set(s, n);
  return { path: list[0]!.path, counts, text: (s, id) => list.reduce<string | null>((t, l) => t ?? l.text(s, id), null) };
}

export async function runDeconReport(o: RunReportOptions): Promise<{ report: DeconReport; written: WrittenReport[] }> {
  const cwd = resolve(o.cwd ?? process.cwd());
  const files = (await expandGlobs(o.documents, { cwd, onNote: o.log })).map((f) => resolve(cwd, f));
  if (files.length === 0) throw new AssayError('CONFIG', `no documents file matches ${o.documents.join(' ')}`, { field: 'documents' });
  const set = o.attributeSet ?? o.name;
  const folders = attributeFolders(files, set);
  const items = mergeItems((await Promise.all(folders.map(readEvalItems))).filter((x): x is EvalItems => x !== null));
  const report = await deconReport({ ...o, files, items });
  const written: WrittenReport[] = [];
  if (o.write !== false) for (const folder of folders) written.push(await writeDeconReport(folder, report));
  return { report, written };
}
export { indexTokenLookup, type TokenSource } from './tokens.js';
export { formatDeconReport } from './format.js';
