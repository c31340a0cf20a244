// `sources.list`: the Parquet and WARC files in a workspace that the Sources dialog can import or extract (bounded walk, links kept inside).
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } from 'hyparquet';
import type { SourceFile } from '../../shared/contract/index.js';

/** Data folders hold what imports produce (and outputs); sources are looked for beside them, not in them. */
const SKIP_DIRS = new Set(['documents', 'attributes', 'node_modules', 'output', 'outputs']);
const LIMITS = { depth: 5, files: 2000, entries: 50_000 };

const kindOf = (name: string): SourceFile['kind'] | null => (/\.parquet$/i.test(name) ? 'parquet' : /\.warc(\.gz)?$/i.test(name) ? 'warc' : null);

const isInside = (root: string, p: string): boolean => p === root || p.startsWith(root + sep);

/** Breadth first from the root, hidden entries and data folders skipped, symbolic links followed only when they stay inside. */
export async function listSources(root: string): Promise<SourceFile[]> {
  const realRoot = await realpath(root);
  const out: SourceFile[] = [];
  const queue: { dir: string; level: number }[] = [{ dir: root, level: 0 }];
  let entries = LIMITS.entries;
  for (let next = queue.shift(); next !== undefined && out.length < LIMITS.files; next = queue.shift()) {
    let list: Dirent[];
    try {
      list = await readdir(next.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (d.name.startsWith('.') || entries-- <= 0 || out.length >= LIMITS.files) continue;
      const path = join(next.dir, d.name);
      if (d.isSymbolicLink() && !isInside(realRoot, await realpath(path).catch(() => ''))) continue;
      const st = await stat(path).catch(() => null);
      if (st === null) continue;
      if (st.isDirectory()) {
        if (next.level < LIMITS.depth && !SKIP_DIRS.has(d.name)) queue.push({ dir: path, level: next.level + 1 });
        continue;
      }
      const kind = kindOf(d.name);
      if (kind === null || !st.isFile()) continue;
      out.push({ path: relative(root, path).split(sep).join('/'), kind, bytes: st.size, ...(kind === 'parquet' ? await parquetFacts(path) : {}) });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Only the footer is read (two small ranges), so listing stays fast for large shards. */
async function parquetFacts(path: string): Promise<Pick<SourceFile, 'columns' | 'rows' | 'problem'>> {
  try {
    const md = await parquetMetadataAsync(await asyncBufferFromFile(path));
    return { columns: parquetSchema(md).children.map((c) => c.element.name), rows: Number(md.num_rows) };
  } catch (e) {
    return { problem: `not a readable Parquet file: ${(e as Error).message}` };
  }
}
