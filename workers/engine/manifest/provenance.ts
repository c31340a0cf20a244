// Which Assay ran: package version and, from a checkout, the git commit read from .git without spawning git.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { hostname, platform, arch } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ToolInfo {
  name: 'assay';
  version: string;
  commit: string | null;
  node: string;
  host: string;
  platform: string;
}

/** Folders from `start` up to the file-system root. */
function* upwards(start: string): Generator<string> {
  let dir = resolve(start);
  for (;;) {
    yield dir;
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

const readText = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The version in the nearest package.json named `assay` above `from` (source tree and bundle alike). */
export function packageVersion(from: string): string {
  for (const dir of upwards(from)) {
    const text = readText(join(dir, 'package.json'));
    if (text === null) continue;
    try {
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (pkg.name === 'assay' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      /* not ours; keep looking */
    }
  }
  return 'unknown';
}

/** The git directory of the checkout holding `from`: `.git` itself, or where a worktree's `.git` file points. */
function gitDir(from: string): string | null {
  for (const dir of upwards(from)) {
    const dotGit = join(dir, '.git');
    const st = existsSync(dotGit) ? statSync(dotGit) : null;
    if (st === null) continue;
    if (st.isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '');
    return m ? (isAbsolute(m[1] as string) ? (m[1] as string) : resolve(dir, m[1] as string)) : null;
  }
  return null;
}

/** A ref's commit: the loose ref file, else its line in packed-refs (in the worktree's git dir or the common one). */
function resolveRef(git: string, ref: string): string | null {
  const common = readText(join(git, 'commondir'))?.trim();
  const dirs = [git, ...(common ? [resolve(git, common)] : [])];
  for (const d of dirs) {
    const loose = readText(join(d, ref))?.trim();
    if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  }
  for (const d of dirs) {
    for (const line of (readText(join(d, 'packed-refs')) ?? '').split('\n')) {
      const [sha, name] = line.trim().split(/\s+/);
      if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  return null;
}

/** HEAD's commit of the checkout holding `from`, or null when there is none (an installed package). */
export function gitCommit(from: string): string | null {
  const git = gitDir(from);
  if (git === null) return null;
  const head = readText(join(git, 'HEAD'))?.trim();
  if (!head) return null;
  if (/^[0-9a-f]{40,64}$/.test(head)) return head;
  const m = /^ref:\s*(\S+)$/.exec(head);
  return m ? resolveRef(git, m[1] as string) : null;
}

let cached: ToolInfo | undefined;

/** This process's Assay, Node and host (computed once). */
export function toolInfo(): ToolInfo {
  if (cached) return cached;
  const here = dirname(fileURLToPath(import.meta.url));
  cached = { name: 'assay', version: packageVersion(here), commit: gitCommit(here), node: process.version, host: hostname(), platform: `${platform()}-${arch()}` };
  return cached;
}
