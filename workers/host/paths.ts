// Workspace confinement: every path the app sends is resolved inside the workspace, symlinks included, or refused as FORBIDDEN.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { HostError } from './errors.js';

/** Lexical containment: `p` is `root` or below it. */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * realpath of the deepest existing ancestor (a path being created does not exist yet, but its parent does).
 * A dangling symlink is followed to where it points (creating the file would create its target);
 * null for a symlink loop.
 */
function realExisting(p: string, depth = 0): string | null {
  let cur = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(cur), ...rest);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ELOOP') return null;
      if (lstatSync(cur, { throwIfNoEntry: false })?.isSymbolicLink()) {
        if (depth >= 40) return null;
        return realExisting(resolve(dirname(cur), readlinkSync(cur), ...rest), depth + 1);
      }
      const parent = dirname(cur);
      if (parent === cur) return p;
      rest.unshift(basename(cur));
      cur = parent;
    }
  }
}

/**
 * Resolves a workspace-relative (or absolute) path and refuses it unless it stays inside the workspace
 * both lexically (`..`) and physically (a symlink pointing out of the workspace).
 */
export function resolveInside(root: string, path: string, field = 'path'): string {
  return confiner(root)(path, field);
}

/** `resolveInside` for many paths of one workspace: the workspace's own real path is resolved once. */
export function confiner(root: string): (path: string, field?: string) => string {
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
