// Workspace confinement: every path the app sends is resolved inside the workspace, symlinks included, or refused as FORBIDDEN.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { HostError } from './errors.js';

/** Lexical containment: `p` is `root` or below it. */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** realpath of the deepest existing ancestor (a path being created does not exist yet, but its parent does). */
function realExisting(p: string): string {
  let cur = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return p;
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

/**
 * Resolves a workspace-relative (or absolute) path and refuses it unless it stays inside the workspace
 * both lexically (`..`) and physically (a symlink pointing out of the workspace).
 */
export function resolveInside(root: string, path: string, field = 'path'): string {
  if (path.includes('\0')) throw new HostError('FORBIDDEN', `${field}: path contains a NUL byte`, field);
  const abs = resolve(root, path);
  if (!isInside(root, abs)) throw new HostError('FORBIDDEN', `${field}: '${path}' is outside the workspace`, field);
  const realRoot = realExisting(root);
  if (!isInside(realRoot, realExisting(abs))) throw new HostError('FORBIDDEN', `${field}: '${path}' leads outside the workspace through a symbolic link`, field);
  return abs;
}

/** The directory part of a glob before its first wildcard, which is what a glob can reach. */
export function globBase(pattern: string): string {
  const i = pattern.search(/[*?[{]/);
  if (i < 0) return pattern;
  const cut = pattern.lastIndexOf('/', i);
  return cut < 0 ? '.' : pattern.slice(0, cut) || '/';
}
