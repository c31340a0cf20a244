// Finding the ledgers recorded under a workspace (or one run's folder): every `.assay/ledger.sqlite` below it.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AssayError } from '../errors.js';

/** Folders a workspace holds in bulk that never contain runs' `.assay` folders of their own. */
const SKIP = new Set(['node_modules', '.git']);

/** Every ledger file under `root` (or `root` itself when it is one), sorted; throws when root does not exist. */
export async function findLedgers(rootArg: string, signal?: AbortSignal): Promise<string[]> {
  const root = resolve(rootArg);
  const st = await stat(root).catch(() => null);
  if (st === null) throw new AssayError('IO', 'no such file or folder', { file: root });
  if (st.isFile()) return [root];
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    if (signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory() || SKIP.has(e.name)) continue;
      const sub = join(dir, e.name);
      if (e.name === '.assay') {
        const ledger = join(sub, 'ledger.sqlite');
        if (await stat(ledger).then((s) => s.isFile(), () => false)) found.push(ledger);
        continue;
      }
      await walk(sub);
    }
  };
  await walk(root);
  return found.sort();
}
