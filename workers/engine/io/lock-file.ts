// A lock file held by one process at a time, across processes and hosts: created exclusively, touched while held, taken over when its holder is gone.
import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { processAlive } from './process.js';

/** The holder touches the lock this often; a lock untouched for STALE_MS is a crashed holder's. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 10 * 60_000;

export interface Holder {
  host: string;
  pid: number;
  /** What the holder said it does (e.g. "assay mix"), or '' from an older lock. */
  what: string;
}

export interface LockFileOptions {
  /** Written into the lock, for whoever finds it held. */
  what: string;
  /** The lock in log lines ("the index lock"). */
  label: string;
  /** The error when `signal` aborts while waiting. */
  cancelled: () => Error;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** How often a waiting process looks again (tests shorten it). */
  pollMs?: number;
  /** Age after which an untouched lock is taken over (tests shorten it). */
  staleMs?: number;
  /**
   * Called while a live holder has the lock: throw to give up (the error is the caller's), return to wait.
   * `first` is true the first time, for a single "waiting for …" line.
   */
  busy: (holder: Holder, first: boolean) => void;
}

/** Either the lock was created (`acquired`), or something other than EEXIST stopped it (`unavailable`: no lock is possible there). */
export type Acquired = { release: () => void } | 'unavailable';

const parse = (text: string): Holder | null => {
  const [host, pid, , what] = text.split('\n');
  return host !== undefined && /^\d+$/.test(pid ?? '') ? { host, pid: Number(pid), what: what ?? '' } : null;
};

export const describeHolder = (h: Holder): string => `${h.what === '' ? 'process' : `${h.what}, process`} ${h.pid} on ${h.host}`;

/**
 * Takes the lock at `path` (its folder must exist), waiting or giving up as `busy` decides. A lock whose process is
 * gone (same host) or that nobody has touched for 10 minutes (another host) is taken over. The holder touches it
 * every 10 s until released; release removes it only if it is still this holder's.
 */
export async function acquireLockFile(path: string, opts: LockFileOptions): Promise<Acquired> {
  const token = `${hostname()}\n${process.pid}\n${randomUUID()}\n${opts.what}\n`;
  let first = true;
  for (;;) {
    if (opts.signal?.aborted) throw opts.cancelled();
    try {
      writeFileSync(path, token, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return 'unavailable';
    }
    const held = current(path);
    if (held === null) continue;
    const holder = parse(held.text);
    // An unreadable lock (a holder that died mid-write) is taken over too.
    const why = holder === null ? 'untouched for too long' : whyStale(holder, held.mtimeMs, opts.staleMs);
    if (holder === null || why !== null) {
      opts.log?.(`taking over ${opts.label} of ${holder ? `process ${holder.pid} on ${holder.host}` : 'an unreadable holder'} (${why})`);
      takeOver(path, held.text);
      continue;
    }
    opts.busy(holder, first);
    first = false;
    await pause(opts.pollMs ?? 250, opts.signal);
  }
  const beat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      /* a lock taken over or removed: the holder finishes as it is */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    release: () => {
      clearInterval(beat);
      // Only our own lock: after a takeover it is someone else's.
      if (current(path)?.text === token) rmSync(path, { force: true });
    },
  };
}

/**
 * Removes the lock at `path` when its holder is gone (same host) or has not touched it for 10 minutes, as a waiter
 * would take it over, but without taking it: for a run that finds the work done and writes nothing. A live holder's
 * lock, or one still being written (unreadable), stays. True when a lock was removed.
 */
export function removeDeadLock(path: string, opts: { label: string; log?: (line: string) => void; staleMs?: number }): boolean {
  const held = current(path);
  if (held === null) return false;
  const holder = parse(held.text);
  const why = holder === null ? null : whyStale(holder, held.mtimeMs, opts.staleMs);
  if (holder === null || why === null) return false;
  opts.log?.(`removed ${opts.label}, left by process ${holder.pid} on ${holder.host} (${why})`);
  takeOver(path, held.text);
  return true;
}

/** Why a lock may be taken from `holder` (its process is gone, or nobody touched the lock for too long), or null. */
function whyStale(holder: Holder, mtimeMs: number, staleMs = STALE_MS): string | null {
  if (holder.host === hostname() && !processAlive(holder.pid)) return 'the process is gone';
  return Date.now() - mtimeMs > staleMs ? 'untouched for too long' : null;
}

function current(path: string): { text: string; mtimeMs: number } | null {
  try {
    return { text: readFileSync(path, 'utf8'), mtimeMs: statSync(path).mtimeMs };
  } catch {
    return null;
  }
}

/** Removes the stale lock `text`, and only it: moved aside first, put back if another waiter's new lock was moved instead. */
function takeOver(path: string, text: string): void {
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  try {
    if (readFileSync(aside, 'utf8') !== text) linkSync(aside, path);
  } catch {
    /* a newer lock is in place: it wins */
  } finally {
    rmSync(aside, { force: true });
  }
}

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((done) => {
    const t = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', finish);
      done();
    }
    signal?.addEventListener('abort', finish, { once: true });
  });
