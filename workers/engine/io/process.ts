// Whether a process on this host still runs: stale locks and temporary files of killed runs are recognised by it.

/** False only when no process has this pid (EPERM: it exists, another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
