// Matches a recipe's `documents` globs against the indexed files, with the Rust glob crate's syntax and order.
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AssayError } from '../../errors.js';
import { compileComponent, hasGlob, type ComponentPattern } from '../../io/glob-pattern.js';
import { compareCodePoints } from '../../io/index.js';

export interface Candidate {
  /** Relative to the dataset root, `/`-separated. */
  path: string;
}

/** realpath of the deepest existing ancestor: a cwd or dataset reached through a symlink compares like the real one. */
export function realish(p: string): string {
  const rest: string[] = [];
  let cur = resolve(p);
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return resolve(p);
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

/**
 * Files of `files` matching `pattern`, in the order `expandGlobs` lists them. A relative pattern resolves
 * against `baseDir`, as `assay mix` resolves it against its working directory (the CLI: the current
 * directory; the app: the workspace root, where its jobs run); whatever lands inside ROOT/documents is
 * matched against the indexed files. Patterns that could reach files outside ROOT/documents are refused:
 * the index cannot know what they would match.
 */
export function matchGlob<F extends Candidate>(pattern: string, root: string, files: readonly F[], field: string, baseDir: string = root): F[] {
  const realRoot = realish(root);
  const docsDir = join(realRoot, 'documents');
  const absolute = pattern.startsWith('/');
  const pieces = pattern.replace(/^\/+/, '').split('/').filter((p, i, all) => p !== '' || i === all.length - 1);
  if (pattern.endsWith('/')) return [];
  let literal = 0;
  while (literal < pieces.length - 1 && !hasGlob(pieces[literal] as string)) literal++;
  const base = realish(resolve(absolute ? '/' : baseDir, ...pieces.slice(0, literal)));
  const rest = pieces.slice(literal);
  const relativeNote = absolute ? '' : ` (relative paths resolve against ${baseDir})`;
  if (rest.length === 1 && !hasGlob(rest[0] as string)) {
    const target = resolve(base, rest[0] as string);
    const hit = files.filter((f) => join(realRoot, f.path) === target);
    if (hit.length === 0 && existsSync(target)) {
      const why = within(dirname(target), docsDir) ? 're-run `assay index` if it is new' : `it is outside ${docsDir}${relativeNote}`;
      throw new AssayError('CONFIG', `${pattern} is not in the index (only files under ${docsDir} are indexed; ${why})`, { field });
    }
    return hit;
  }
  if (!within(base, docsDir)) {
    throw new AssayError(
      'CONFIG',
      `the pattern ${JSON.stringify(pattern)} reaches ${base}${relativeNote}, which can hold files outside ${docsDir}, all the index covers; point it into that folder`,
      { field },
    );
  }
  const comps = rest.map((c) => compileComponent(c, pattern));
  const matched: { f: F; parts: string[] }[] = [];
  for (const f of files) {
    const rel = relative(base, join(realRoot, f.path));
    if (rel.startsWith('..') || isAbsolute(rel)) continue;
    const parts = rel.split(sep);
    if (matches(comps, 0, parts, 0)) matched.push({ f, parts });
  }
  // The crate walks directories depth-first with each listing sorted: compare component by component.
  matched.sort((a, b) => {
    const n = Math.min(a.parts.length, b.parts.length);
    for (let i = 0; i < n; i++) {
      const c = compareCodePoints(a.parts[i] as string, b.parts[i] as string);
      if (c !== 0) return c;
    }
    return a.parts.length - b.parts.length;
  });
  return matched.map((m) => m.f);
}

const within = (dir: string, docsDir: string): boolean => dir === docsDir || dir.startsWith(docsDir + sep);

function matches(comps: readonly ComponentPattern[], ci: number, parts: readonly string[], pi: number): boolean {
  if (ci === comps.length) return pi === parts.length;
  const c = comps[ci] as ComponentPattern;
  if (c.recursive) {
    // `**` stands for zero or more directories, never for the file itself.
    if (ci === comps.length - 1) return false;
    for (let k = pi; k < parts.length; k++) if (matches(comps, ci + 1, parts, k)) return true;
    return false;
  }
  return pi < parts.length && c.test(parts[pi] as string) && matches(comps, ci + 1, parts, pi + 1);
}
