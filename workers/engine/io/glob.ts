// Local glob expansion with the Rust `glob` crate's semantics and order, as Dolma's mixer uses it.
import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AssayError } from '../errors.js';
import { compileComponent, type ComponentPattern } from './glob-pattern.js';
import { errorText } from './source.js';

export { hasGlob } from './glob-pattern.js';

export interface GlobOptions {
  /** Base for relative patterns (default process.cwd()); results stay relative. */
  cwd?: string;
  /**
   * Told of each symbolic link `**` does not follow because it leads to a folder the pattern already lists (a loop,
   * or a second path to the same files): Dolma's glob crate would list those files again under the link's path (a
   * loop: again and again, under longer paths, until the system refuses to resolve them).
   */
  onNote?: (message: string) => void;
}

/**
 * Regular files matching each pattern, patterns in the given order, duplicates (same resolved path)
 * dropped keeping the first, partial files ending in `.tmp` skipped. Within a pattern the order is
 * the crate's: depth-first with every directory listing sorted by name (code points = UTF-8 bytes),
 * i.e. sorted component by component — `a/b/x.gz` comes before `a/b.gz`, unlike a sort of whole
 * path strings. `*`, `?` and classes never cross `/`; `**` alone as a component is any number of
 * directories. Only directories a pattern can reach are listed (literal components are looked up).
 */
export async function expandGlobs(patterns: readonly string[], opts: GlobOptions = {}): Promise<string[]> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const seen = new Set<string>();
  const out: string[] = [];
  for (const pattern of patterns) {
    for (const p of await expandOne(pattern, cwd, opts.onNote)) {
      const key = resolve(cwd, p);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(p);
    }
  }
  return out;
}

/** `broken`: a symlink whose target is missing or that loops (an error once the pattern reaches it). */
type Kind = 'file' | 'dir' | 'other' | 'broken';

interface Entry {
  /** The path as reported, in the pattern's own style. */
  shown: string;
  /** The same path usable from this process (absolute). */
  real: string;
  name: string;
  kind: Kind;
  /** Index of the component this entry still has to match; DONE when it already matched them all. */
  idx: number;
  /** errno of a broken symlink (ENOENT: dangling, ELOOP: a loop). */
  errno?: string;
  /** Reached through a symbolic link. */
  link?: boolean;
}

const DONE = -1;

async function expandOne(pattern: string, cwd: string, onNote?: (message: string) => void): Promise<string[]> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pattern)) {
    // Dolma lists S3 prefixes with different (substring) rules; only local files exist here.
    throw new AssayError('CONFIG', `remote paths are not supported, only local files: ${JSON.stringify(pattern)}`);
  }
  const absolute = pattern.startsWith('/');
  const body = pattern.replace(/^\/+/, '');
  // A trailing `/` makes the crate return directories only, and only files are wanted here.
  if (pattern.endsWith('/') && body !== '') return [];
  const pieces = body === '' ? [''] : body.split('/');
  if (pieces.length > 1 && pieces[pieces.length - 1] === '') pieces.pop();
  const comps = pieces.map((c) => compileComponent(c, pattern));
  const walker = new Walker(comps, pattern, onNote);
  const root: Entry = absolute
    ? { shown: '/', real: '/', name: '', kind: 'dir', idx: 0 }
    : { shown: '.', real: cwd, name: '.', kind: await kindOf(cwd), idx: 0 };
  await walker.fill(0, root);
  return walker.run();
}

/** A transcription of the crate's `Paths` iterator: a stack of entries, listings pushed reversed. */
class Walker {
  private readonly todo: Entry[] = [];
  private readonly results: string[] = [];
  /** Directories already listed for a `**` component (by device and inode, to the path first listed), so symlink cycles end (the crate follows them). */
  private readonly expanded = new Map<string, string>();

  constructor(
    private readonly comps: ComponentPattern[],
    private readonly pattern: string,
    private readonly onNote?: (message: string) => void,
  ) {}

  async run(): Promise<string[]> {
    const last = this.comps.length - 1;
    for (let e = this.todo.pop(); e !== undefined; e = this.todo.pop()) {
      if (e.idx === DONE) {
        this.accept(e);
        continue;
      }
      let idx = e.idx;
      if (this.comps[idx]?.recursive) {
        let next = idx;
        while (next < last && this.comps[next + 1]?.recursive) next++;
        if (e.kind === 'dir') {
          await this.fill(next, e);
          if (next === last) continue; // a directory result: not a file
        } else if (next === last) continue;
        idx = next + 1;
      }
      if (!this.comps[idx]?.test(e.name)) continue;
      if (idx === last) this.accept(e);
      else await this.fill(idx + 1, e);
    }
    return this.results;
  }

  private accept(e: Entry): void {
    if (e.kind === 'broken') throw brokenLink(e);
    if (e.kind === 'file' && !e.shown.endsWith('.tmp')) this.results.push(e.shown);
  }

  /** The crate's `fill_todo`: queue what under `dir` may match component `idx`. */
  async fill(idx: number, dir: Entry): Promise<void> {
    const comp = this.comps[idx];
    if (comp === undefined) return;
    // The pattern goes on below a symlink that leads nowhere: silently finding nothing would hide it.
    if (dir.kind === 'broken') throw brokenLink(dir);
    const add = async (next: Entry): Promise<void> => {
      if (idx === this.comps.length - 1) this.todo.push({ ...next, idx: DONE });
      else await this.fill(idx + 1, next);
    };
    const curdir = dir.shown === '.';
    if (comp.literal !== null) {
      // No metacharacters: look the one name up instead of listing the directory.
      const s = comp.literal;
      if ((s === '.' || s === '..') && dir.kind !== 'dir') return;
      const next = await lookup(curdir ? s : join(dir.shown, s), join(dir.real, s), s);
      if (next !== null) await add(next);
      return;
    }
    if (dir.kind !== 'dir') return;
    if (comp.recursive && !(await this.firstExpansion(idx, dir))) return;
    const children = await this.list(dir, curdir, idx);
    children.sort((a, b) => compareCodePoints(b.name, a.name));
    for (const child of children) this.todo.push(child); // no spread: listings can be huge
    if (comp.leadingDot) {
      for (const special of ['.', '..']) {
        if (comp.test(special)) await add({ shown: join(dir.shown, special), real: join(dir.real, special), name: special, kind: 'dir', idx });
      }
    }
  }

  private async list(dir: Entry, curdir: boolean, idx: number): Promise<Entry[]> {
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir.real, { withFileTypes: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return [];
      throw new AssayError('IO', `cannot list directory while expanding a glob: ${errorText(e)}`, { file: dir.shown, cause: e });
    }
    return Promise.all(
      dirents.map(async (d) => {
        const real = join(dir.real, d.name);
        const shown = curdir ? d.name : join(dir.shown, d.name);
        if (d.isSymbolicLink()) return linkEntry(shown, real, d.name, idx);
        const kind: Kind = d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
        return { shown, real, name: d.name, kind, idx };
      }),
    );
  }

  private async firstExpansion(idx: number, dir: Entry): Promise<boolean> {
    const st = await stat(dir.real).catch(() => null);
    if (st === null) return false;
    const key = `${idx}:${st.dev}:${st.ino}`;
    const first = this.expanded.get(key);
    if (first === undefined) {
      this.expanded.set(key, dir.shown);
      return true;
    }
    // Either this path is the link, or it is the folder itself, reached after a link to it (`latest -> v3`, in order).
    const what = dir.link ? `a symbolic link to ${first}` : `the same folder as ${first} (reached through a symbolic link)`;
    this.onNote?.(`${dir.shown}: not followed by '${this.pattern}': ${what}, whose files the pattern already lists (once each)`);
    return false;
  }
}

/** The entry for a looked-up path, or null when nothing (not even a dangling link) is there. */
async function lookup(shown: string, real: string, name: string): Promise<Entry | null> {
  const st = await stat(real).catch(() => null);
  if (st !== null) return { shown, real, name, kind: kindOfStats(st), idx: 0 };
  const l = await lstat(real).catch(() => null);
  if (l === null) return null;
  return l.isSymbolicLink() ? linkEntry(shown, real, name, 0) : { shown, real, name, kind: 'other', idx: 0 };
}

/** A symlink's entry: the kind of what it points to, or `broken` with the reason. */
async function linkEntry(shown: string, real: string, name: string, idx: number): Promise<Entry> {
  try {
    return { shown, real, name, kind: kindOfStats(await stat(real)), idx, link: true };
  } catch (e) {
    return { shown, real, name, kind: 'broken', idx, errno: (e as NodeJS.ErrnoException).code ?? 'ENOENT' };
  }
}

function brokenLink(e: Entry): AssayError {
  const why = e.errno === 'ELOOP' ? 'is a symbolic link loop' : e.errno === 'ENOENT' || e.errno === 'ENOTDIR' ? 'is a dangling symbolic link (its target does not exist)' : `is a symbolic link that cannot be followed (${e.errno})`;
  return new AssayError('IO', `${why}; remove or fix it (glob expansion does not skip it silently)`, { file: e.shown });
}

async function kindOf(path: string): Promise<Kind> {
  return kindOfStats(await stat(path).catch(() => null));
}

function kindOfStats(st: Stats | null): Kind {
  return st === null ? 'other' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
}

/** Rust `Path::join` for a relative piece: `a` + `b` = `a/b`, `a/` + `b` = `a/b`, `a` + `` = `a/`. */
function join(base: string, piece: string): string {
  return base.endsWith('/') ? base + piece : `${base}/${piece}`;
}

/** Code-point order (= UTF-8 byte order, as Rust sorts OsStr); plain `<` compares UTF-16 units. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (D800–DFFF) encode code points above FFFF, so they sort after E000–FFFF.
    const fx = x >= 0xd800 ? (x <= 0xdfff ? x + 0x2000 : x - 0x800) : x;
    const fy = y >= 0xd800 ? (y <= 0xdfff ? y + 0x2000 : y - 0x800) : y;
    return fx - fy;
  }
  return a.length - b.length;
}
