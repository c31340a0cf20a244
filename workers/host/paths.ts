// Workspace confinement: every path the app sends is resolved inside the workspace, symlinks included, or refused as FORBIDDEN.
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { HostError } from './errors.js';

/** Lexical containment: `p` is `root` or below it. */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Where `p` really is: symlinks followed component by component, a path being created resolved through
 * its existing ancestors, a dangling symlink followed to where it points (creating the file would create
 * its target); null for a symlink loop. Folders are looked up once per resolver (a job may check tens of
 * thousands of files in a handful of folders).
 */
function realResolver(cacheFolders: boolean): (p: string) => string | null {
  const folders = new Map<string, string | null>();
  const real = (p: string, depth: number): string | null => {
    const parent = dirname(p);
    if (parent === p) return p;
    const known = folders.get(p);
    if (known !== undefined) return known;
    let st: Stats | undefined;
    try {
      st = lstatSync(p, { throwIfNoEntry: false });
    } catch {
      st = undefined; // ENOTDIR and the like: nothing there to follow
    }
    const base = real(parent, depth);
    let r: string | null;
    if (base === null) r = null;
    else if (st?.isSymbolicLink()) r = depth >= 40 ? null : real(resolve(base, readlinkSync(p)), depth + 1);
    else r = join(base, basename(p));
    if (cacheFolders && (st === undefined || !st.isFile())) folders.set(p, r);
    return r;
  };
  return (p) => real(resolve(p), 0);
}

/**
 * Resolves a workspace-relative (or absolute) path and refuses it unless it stays inside the workspace
 * both lexically (`..`) and physically (a symlink pointing out of the workspace).
 */
export function resolveInside(root: string, path: string, field = 'path'): string {
  return confiner(root)(path, field);
}

/**
 * `resolveInside` for many paths of one workspace. `batch`: folders are resolved once and remembered, for
 * one pass over many files (a job's check, one index build); a long-lived confiner must not remember them,
 * since a folder may be swapped for a symlink later.
 */
export function confiner(root: string, opts: { batch?: boolean } = {}): (path: string, field?: string) => string {
  const realExisting = realResolver(opts.batch ?? false);
  const realRoot = realExisting(root) ?? root;
  return (path, field = 'path') => {
    if (path.includes('\0')) throw new HostError('FORBIDDEN', `${field}: path contains a NUL byte`, field);
    const abs = resolve(root, path);
    // Shown relative to the workspace: an absolute path inside it reads better as the app shows paths.
    const shown = isAbsolute(path) && isInside(root, abs) ? relative(root, abs) || '.' : path;
    if (!isInside(root, abs)) throw new HostError('FORBIDDEN', `${field}: '${path}' is outside the workspace`, field);
    const real = realExisting(abs);
    if (real === null) throw new HostError('FORBIDDEN', `${field}: '${shown}' is a symbolic link loop`, field);
    if (!isInside(realRoot, real)) throw new HostError('FORBIDDEN', `${field}: '${shown}' leads outside the workspace through a symbolic link`, field);
    return abs;
  };
}

/** The directory part of a glob before its first wildcard, which is what a glob can reach. */
export function globBase(pattern: string): string {
  const i = pattern.search(/[*?[{]/);
  if (i < 0) return pattern;
  const cut = pattern.lastIndexOf('/', i);
  return cut < 0 ? '.' : pattern.slice(0, cut) || '/';
}
