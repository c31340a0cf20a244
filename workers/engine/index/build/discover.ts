// Finds a Dolma dataset's documents files and attribute sets (ROOT/documents/**, ROOT/attributes/<set>/**).
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { AssayError } from '../../errors.js';
import { attributePathFor, compareCodePoints } from '../../io/index.js';

export interface FoundFile {
  /** Relative to the dataset root, `/`-separated. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface Discovery {
  documents: FoundFile[];
  sets: string[];
  /** attributes[set] = attribute file per documents path (only files that exist). */
  attributes: Map<string, Map<string, FoundFile>>;
}

/** Folders Assay writes for itself (the index, tagger markers) are never data. */
const OWN_DIRS = new Set(['.assay', '.assay-done']);

export async function requireDatasetRoot(root: string): Promise<void> {
  const st = await stat(root).catch(() => null);
  if (st === null) throw new AssayError('CONFIG', `dataset folder ${root} does not exist (moved or deleted?)`);
  if (!st.isDirectory()) throw new AssayError('CONFIG', `${root} is not a folder; expected a dataset root with documents/ and attributes/`);
  const docs = await stat(join(root, 'documents')).catch(() => null);
  if (docs === null || !docs.isDirectory()) {
    throw new AssayError('CONFIG', `${root} has no documents/ folder; a dataset root holds documents/** and attributes/<set>/** (Dolma's layout)`);
  }
}

/**
 * Called with every file and folder a build would read, by its path under the root; it throws to refuse
 * one (the app refuses what a symbolic link takes outside its workspace; the CLI follows links).
 */
export type PathCheck = (path: string, field: string) => void;

/**
 * `onNote` hears of each folder link the walk does not follow (one back up the tree, or a second path to a folder
 * already listed: its files are listed once) and of each link whose target is missing (skipped).
 */
export async function discover(root: string, check?: PathCheck, onNote?: (line: string) => void): Promise<Discovery> {
  await requireDatasetRoot(root);
  check?.(join(root, 'documents'), 'documents');
  const documents = await listFiles(root, join(root, 'documents'), check, onNote);
  const attrRoot = join(root, 'attributes');
  const setDirs = await readdir(attrRoot, { withFileTypes: true }).catch(() => [] as Dirent[]);
  const sets: string[] = [];
  for (const d of setDirs) {
    if (OWN_DIRS.has(d.name)) continue;
    const isDir = d.isDirectory() || (d.isSymbolicLink() && (await stat(join(attrRoot, d.name)).catch(() => null))?.isDirectory() === true);
    if (isDir) {
      check?.(join(attrRoot, d.name), 'attributes');
      sets.push(d.name);
    }
  }
  sets.sort(compareCodePoints);
  const attributes = new Map<string, Map<string, FoundFile>>();
  for (const set of sets) {
    const found = new Map<string, FoundFile>();
    for (const doc of documents) {
      const path = attributePathFor(join(root, doc.path), set);
      const st = await stat(path).catch(() => null);
      if (!st?.isFile()) continue;
      check?.(path, 'attributes');
      found.set(doc.path, { path: toRel(root, path), size: st.size, mtimeMs: st.mtimeMs });
    }
    attributes.set(set, found);
  }
  return { documents, sets, attributes };
}

const toRel = (root: string, p: string): string => relative(root, p).split(sep).join('/');

/** Regular files below `dir` (symlinks followed), skipping `.tmp` partials and Assay's own folders, sorted by code point. */
async function listFiles(root: string, dir: string, check: PathCheck | undefined, onNote?: (line: string) => void): Promise<FoundFile[]> {
  const out: FoundFile[] = [];
  // Each folder once, by device and inode: the first path that reached it.
  const seen = new Map<string, string>();
  const visit = async (d: string, link: boolean): Promise<void> => {
    const st = await stat(d).catch(() => null);
    if (st === null) return;
    const key = `${st.dev}:${st.ino}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const what = link ? `a symbolic link to ${first}` : `the same folder as ${first} (reached through a symbolic link)`;
      onNote?.(`${toRel(root, d)}: not followed: ${what}, whose files the index already lists (once each)`);
      return;
    }
    seen.set(key, toRel(root, d));
    let entries: Dirent[];
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch (e) {
      throw new AssayError('IO', `cannot list ${d}: ${(e as Error).message}`);
    }
    // In code-point order, as glob walks: which of two paths to one folder lists its files does not depend on the disk.
    entries.sort((a, b) => compareCodePoints(a.name, b.name));
    for (const e of entries) {
      const p = join(d, e.name);
      if (OWN_DIRS.has(e.name)) continue;
      const s = e.isSymbolicLink() ? await stat(p).catch(() => null) : null;
      if (e.isSymbolicLink() && s === null) onNote?.(`${toRel(root, p)}: skipped: a symbolic link to a missing path (or a loop of links)`);
      if (e.isDirectory() || s?.isDirectory()) {
        if (s !== null) check?.(p, 'documents');
        await visit(p, s !== null);
      } else if ((e.isFile() || s?.isFile()) && !e.name.endsWith('.tmp')) {
        if (s !== null) check?.(p, 'documents');
        const fst = s ?? (await stat(p));
        out.push({ path: toRel(root, p), size: fst.size, mtimeMs: fst.mtimeMs });
      }
    }
  };
  await visit(dir, false);
  out.sort((a, b) => compareCodePoints(a.path, b.path));
  return out;
}
