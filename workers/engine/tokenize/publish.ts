// Publishing a run's memmaps: earlier outputs in the destination, all-or-nothing renames, the summary file.
import { readdir, readFile, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AssayError } from '../errors.js';
import { discardTemp, promoteTemp, writeFileAtomic } from '../io/index.js';
import { PART_FILE } from './plan.js';
import type { PartInfo } from './writer.js';

/** The run summary beside the outputs (hidden, so `part-*` globs and OLMo never see it). */
export const summaryPath = (destination: string): string => join(destination, '.assay', 'tokens-summary.json');
/** Names a run is publishing, written before its first rename and removed after its summary: a run killed in between still owns them. */
const publishingPath = (destination: string): string => join(destination, '.assay', 'tokens-publishing.json');

async function listDir(dir: string): Promise<string[]> {
  return readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    throw new AssayError('IO', `cannot list the destination: ${e.message}`, { file: dir, cause: e });
  });
}

/**
 * The `part-*` files an earlier Assay run recorded in its summary; they are replaced by this run.
 * Any other `part-*` file is an error before any work: a trainer globbing the folder would mix it
 * with the new outputs (Dolma silently overwrites same-named files and leaves the rest).
 */
export async function previousOutputs(destination: string): Promise<Set<string>> {
  const existing = (await listDir(destination)).filter((n) => PART_FILE.test(n));
  const recorded = new Set<string>();
  const prev = await readFile(summaryPath(destination), 'utf8').then(
    (t) => JSON.parse(t) as { outputs?: { npy?: string; csv?: string }[] },
    () => null,
  );
  for (const o of prev?.outputs ?? []) for (const f of [o.npy, o.csv]) if (typeof f === 'string') recorded.add(basename(f));
  const publishing = await readFile(publishingPath(destination), 'utf8').then(
    (t) => JSON.parse(t) as { names?: unknown[] },
    () => null,
  );
  for (const f of publishing?.names ?? []) if (typeof f === 'string') recorded.add(basename(f));
  const foreign = existing.filter((n) => !recorded.has(n));
  if (foreign.length > 0) {
    throw new AssayError(
      'CONFIG',
      `the destination already holds ${foreign.length} part file(s) not written by an earlier Assay run (e.g. ${foreign[0]}); ` +
        'remove them or choose an empty destination, so old and new memmaps are never mixed',
      { field: 'destination', file: destination },
    );
  }
  return new Set(existing);
}

/** Renames every completed `.tmp` to its final name, then removes earlier outputs this run did not rewrite. */
export async function publishParts(destination: string, parts: readonly Pick<PartInfo, 'npy' | 'csv'>[], previous: ReadonlySet<string>): Promise<void> {
  const names = [...new Set([...previous, ...parts.flatMap((p) => [basename(p.npy), basename(p.csv)])])].sort();
  await writeFileAtomic(publishingPath(destination), JSON.stringify({ names }) + '\n', { mkdir: true });
  for (const p of parts) {
    await promoteTemp(p.npy);
    await promoteTemp(p.csv);
  }
  const written = new Set(parts.flatMap((p) => [basename(p.npy), basename(p.csv)]));
  for (const name of previous) if (!written.has(name)) await unlink(join(destination, name)).catch(() => undefined);
}

/** After a failure or cancel: the completed parts' temporaries and any a killed worker left behind. */
export async function discardRun(destination: string, parts: readonly PartInfo[]): Promise<void> {
  for (const p of parts) await Promise.all([discardTemp(p.npy), discardTemp(p.csv)]);
  for (const name of await listDir(destination).catch(() => [])) {
    if (name.endsWith('.tmp') && PART_FILE.test(name.slice(0, -4))) await unlink(join(destination, name)).catch(() => undefined);
  }
}

/** Writes the summary, then drops the publishing record: from here the summary alone says which parts are this run's. */
export async function writeSummary(destination: string, summary: unknown): Promise<void> {
  await writeFileAtomic(summaryPath(destination), JSON.stringify(summary, null, 2) + '\n', { mkdir: true });
  await unlink(publishingPath(destination)).catch(() => undefined);
}
