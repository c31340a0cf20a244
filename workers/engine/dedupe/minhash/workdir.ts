// MinHash spill folders named after their run (`.minhash-work-<host>-<pid>-…`), so a later run can remove the ones a killed run left.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../../io/process.js';

const PREFIX = '.minhash-work-';
/** This machine, in the folder name: a pid says nothing about a run on another machine sharing the disk. */
const HOST = createHash('sha1').update(hostname()).digest('hex').slice(0, 8);
const OURS = /^\.minhash-work-([0-9a-f]{8})-(\d+)-/;

/** A fresh spill folder for this run. */
export function createWorkDir(workRoot: string): string {
  return mkdtempSync(join(workRoot, `${PREFIX}${HOST}-${process.pid}-`));
}


/**
 * Removes spill folders of runs that provably ended without cleaning up: made on this machine by a
 * process that no longer exists. Others (another machine's, a live run's, or unnamed ones from Assay
 * versions before the names carried a pid) are left, and returned so the caller can mention them.
 */
export function removeStaleWorkDirs(workRoot: string): { removed: string[]; left: string[] } {
  const out = { removed: [] as string[], left: [] as string[] };
  let names: string[];
  try {
    names = readdirSync(workRoot);
  } catch {
    return out;
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const m = OURS.exec(name);
    const pid = Number(m?.[2]);
    if (m?.[1] === HOST && pid !== process.pid && !processAlive(pid)) {
      rmSync(join(workRoot, name), { recursive: true, force: true });
      out.removed.push(name);
    } else if (!(m?.[1] === HOST && pid === process.pid)) out.left.push(name);
  }
  return out;
}
