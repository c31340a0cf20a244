// One index build at a time per workspace, across processes and hosts: `.assay/index.lock`, held for the whole build.
import { randomUUID } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AssayError } from '../errors.js';
import { processAlive } from '../io/process.js';

export const lockPath = (root: string): string => join(root, '.assay', 'index.lock');

/** The holder touches the lock this often; a lock untouched for STALE_MS is a crashed holder's. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 10 * 60_000;

export interface LockOptions {
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** How often a waiting build looks again (tests shorten it). */
  pollMs?: number;
  /** Age after which an untouched lock is taken over (tests shorten it). */
  staleMs?: number;
}

interface Holder {
  host: string;
  pid: number;
}

const parse = (text: string): Holder | null => {
  const [host, pid] = text.split('\n');
  return host !== undefined && /^\d+$/.test(pid ?? '') ? { host, pid: Number(pid) } : null;
};

/**
 * Runs `fn` holding the workspace's index lock. Two builds at once each listed the dataset before the other wrote,
 * and the one that committed last left out attribute files the other had indexed (or, for two first builds, renamed
 * an incomplete index into place); with the lock the second lists the files only after the first has finished.
 * A lock whose process is gone (same host) or that nobody has touched for 10 minutes (another host) is taken over.
 */
export async function withIndexLock<T>(root: string, opts: LockOptions, fn: () => Promise<T>): Promise<T> {
  const path = lockPath(root);
  // Not a dataset (or nothing can be written there): the build fails on its own, saying why, and leaves no `.assay/`.
  if (!existsSync(join(root, 'documents'))) return fn();
  try {
    mkdirSync(join(root, '.assay'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return fn();
  }
  const token = `${hostname()}\n${process.pid}\n${randomUUID()}\n`;
  let told = false;
  for (;;) {
    if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'indexing cancelled (while waiting for another index build)');
    try {
      writeFileSync(path, token, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return fn();
    }
    const held = current(path);
    if (held === null) continue;
    const holder = parse(held.text);
    const dead = holder !== null && holder.host === hostname() && !processAlive(holder.pid);
    if (holder === null || dead || Date.now() - held.mtimeMs > (opts.staleMs ?? STALE_MS)) {
      opts.log?.(`taking over the index lock of ${holder ? `process ${holder.pid} on ${holder.host}` : 'an unreadable holder'} (${dead ? 'the process is gone' : 'untouched for too long'})`);
      takeOver(path, held.text);
      continue;
    }
    if (!told) {
      opts.log?.(`waiting for another index build (process ${holder.pid} on ${holder.host}) to finish`);
      told = true;
    }
    await pause(opts.pollMs ?? 250, opts.signal);
  }
  const beat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      /* a lock taken over or removed: the build finishes as it is */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(beat);
    // Only our own lock: after a takeover it is someone else's.
    if (current(path)?.text === token) rmSync(path, { force: true });
  }
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
