// StatsMerger: sum every rank file `[0-9]{5}.json` of each leaf stat folder into `{folder}/metric.json`.
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { AssayError } from '../errors.js';
import { compareCodePoints } from '../io/glob.js';
import { writeFileAtomic } from '../io/write.js';
import { MetricStatsDict } from './dict.js';
import { MetricStats } from './metric.js';
import { pyJsonParse } from './pyjson.js';
import { DEFAULT_TOP_K_CONFIG, type TopKConfig } from './types.js';

export const STATS_MERGED_NAME = 'metric.json';
const RANK_FILE = /^[0-9]{5}\.json$/;

export interface MergeOptions {
  topK?: TopKConfig;
  /** This merger's shard of the sorted leaf folders: `folders[rank::worldSize]`. */
  rank?: number;
  worldSize?: number;
}

/**
 * Merge the rank files of one stat folder (`{group}/{stat}`), in the order given. `folder` decides
 * top-k: its parent's name, up to a `__`, is the group.
 */
export function mergeStatFolder(folder: string, files: readonly { name: string; json: string }[], topK = DEFAULT_TOP_K_CONFIG): string {
  let stat = new MetricStatsDict();
  for (const f of files) {
    const parsed = pyJsonParse(f.json, f.name);
    if (!(parsed instanceof Map)) throw new AssayError('PARSE', 'a stats file must hold a JSON object', { file: f.name });
    for (const [key, item] of parsed) stat.get(key).addInPlace(MetricStats.fromDict(item));
  }
  const group = (posix.basename(posix.dirname(folder)) || '').split('__')[0] ?? '';
  if ((topK.topKGroups as readonly string[]).includes(group)) stat = stat.pick(stat.topKKeysByN(topK.topK));
  return stat.toJson();
}

/** StatsMerger over an in-memory tree (relative path → file text); returns `{folder}/metric.json` → text. */
export function mergeStatsFiles(files: ReadonlyMap<string, string>, opts: MergeOptions = {}): Map<string, string> {
  const { rank = 0, worldSize = 1 } = opts;
  const byDir = new Map<string, { name: string; json: string }[]>();
  for (const [name, json] of files) {
    const dir = posix.dirname(name);
    const list = byDir.get(dir) ?? [];
    if (RANK_FILE.test(posix.basename(name))) list.push({ name, json });
    byDir.set(dir, list);
  }
  // Leaf folders only: a folder that is an ancestor of another holds groups, not rank files.
  const inner = new Set<string>();
  for (const d of byDir.keys()) for (let cur = d, up = posix.dirname(d); up !== cur; cur = up, up = posix.dirname(up)) inner.add(up);
  const folders = [...byDir.keys()].filter((d) => !inner.has(d)).sort(compareCodePoints);
  const out = new Map<string, string>();
  for (const folder of folders.filter((_, i) => i % worldSize === rank)) {
    const inputs = (byDir.get(folder) ?? []).sort((a, b) => compareCodePoints(a.name, b.name));
    out.set(posix.join(folder, STATS_MERGED_NAME), mergeStatFolder(folder, inputs, opts.topK));
  }
  return out;
}

/** StatsMerger on disk: reads `inputDir`, writes `outputDir/{folder}/metric.json`; returns the paths written. */
export async function mergeStatsFolders(
  inputDir: string,
  outputDir: string,
  opts: MergeOptions & { removeInput?: boolean } = {},
): Promise<string[]> {
  const { rank = 0, worldSize = 1 } = opts;
  const leaves = (await walkLeaves(inputDir, '')).sort((a, b) => compareCodePoints(a.folder, b.folder));
  const written: string[] = [];
  for (const { folder, names } of leaves.filter((_, i) => i % worldSize === rank)) {
    const inputs = names.filter((n) => RANK_FILE.test(n)).sort(compareCodePoints);
    const files = [];
    for (const n of inputs) files.push({ name: join(inputDir, folder, n), json: await readText(join(inputDir, folder, n)) });
    const path = join(outputDir, folder, STATS_MERGED_NAME);
    await writeFileAtomic(path, mergeStatFolder(folder, files, opts.topK), { codec: 'plain' });
    written.push(path);
    if (opts.removeInput) for (const f of files) await unlink(f.name);
  }
  return written;
}

async function walkLeaves(root: string, rel: string): Promise<{ folder: string; names: string[] }[]> {
  let entries;
  try {
    entries = await readdir(join(root, rel), { withFileTypes: true });
  } catch (e) {
    throw new AssayError('IO', `cannot list the stats folder: ${(e as Error).message}`, { file: join(root, rel), cause: e });
  }
  const subdirs = entries.filter((e) => e.isDirectory());
  if (subdirs.length === 0) {
    const names = entries.filter((e) => e.isFile()).map((e) => e.name);
    return names.length > 0 ? [{ folder: rel === '' ? '.' : rel, names }] : [];
  }
  const out = [];
  for (const d of subdirs) out.push(...(await walkLeaves(root, rel === '' ? d.name : posix.join(rel, d.name))));
  return out;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('IO', `cannot read: ${(e as Error).message}`, { file: path, cause: e });
  }
}
