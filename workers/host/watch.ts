// Watches the workspace files the app has open and emits `file.changed` within a second of a change on disk (edit, atomic rename, delete).
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import type { Events } from '../../shared/contract/index.js';
import { HostError } from './errors.js';
import { resolveInside } from './paths.js';

/** A window has a handful of files open; more is a client bug, refused before it costs a watcher each. */
export const MAX_WATCHED = 64;
/** The polling fallback's period: fs.watch misses changes on some filesystems (network mounts, some containers). */
const POLL_MS = 400;

interface Watched {
  rel: string;
  abs: string;
  /** Watch calls not yet matched by an unwatch (two views of one file share it). */
  refs: number;
  /** size, mtime and inode, or null when the file does not exist: a change of any of them is an event. */
  state: string | null;
  dir: FSWatcher | null;
}

const stateOf = (abs: string): string | null => {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st === undefined ? null : `${st.size}:${st.mtimeMs}:${st.ino}`;
};

export class FileWatcher {
  private readonly files = new Map<string, Watched>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly root: string,
    private readonly emit: (payload: Events['file.changed']) => void,
  ) {}

  watch(path: string): { path: string } {
    const abs = resolveInside(this.root, path);
    const rel = relative(this.root, abs).split(sep).join('/');
    const have = this.files.get(abs);
    if (have) {
      have.refs++;
      return { path: rel };
    }
    if (this.files.size >= MAX_WATCHED) throw new HostError('BAD_REQUEST', `path: already watching ${MAX_WATCHED} files; unwatch one first`, 'path');
    const w: Watched = { rel, abs, refs: 1, state: stateOf(abs), dir: null };
    // The folder, not the file: an editor's save-by-rename replaces the file's inode, which a file watch would lose.
    try {
      w.dir = watch(dirname(abs), { persistent: false }, (_event, name) => {
        if (name === null || String(name) === basename(abs)) this.check(w);
      });
      w.dir.on('error', () => {
        w.dir?.close();
        w.dir = null;
      });
    } catch {
      w.dir = null;
    }
    this.files.set(abs, w);
    this.timer ??= setInterval(() => this.poll(), POLL_MS).unref();
    return { path: rel };
  }

  unwatch(path: string): { path: string } {
    const abs = resolveInside(this.root, path);
    const w = this.files.get(abs);
    const rel = relative(this.root, abs).split(sep).join('/');
    if (w === undefined) return { path: rel };
    if (--w.refs <= 0) {
      w.dir?.close();
      this.files.delete(abs);
      if (this.files.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    }
    return { path: rel };
  }

  get watched(): string[] {
    return [...this.files.values()].map((w) => w.rel);
  }

  close(): void {
    for (const w of this.files.values()) w.dir?.close();
    this.files.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private poll(): void {
    for (const w of this.files.values()) this.check(w);
  }

  /** Emits once per real change, however many fs events or polls notice it. */
  private check(w: Watched): void {
    const now = stateOf(w.abs);
    if (now === w.state) return;
    w.state = now;
    this.emit({ path: w.rel, exists: now !== null });
  }
}
