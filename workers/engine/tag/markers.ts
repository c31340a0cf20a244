// Completion markers of tagged files: what vouches that an attribute file is complete, checked before tagging a file and again after waiting for another run's lock.
import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../io/index.js';
import { markerPath } from '../io/markers.js';
import type { OutputSet } from './file.js';

export interface Marker {
  fingerprint: string;
  /** sha256 of input and output as stored, so a rerun that skips the file still lists both in its manifest. */
  input: { size: number; mtimeMs: number; sha256?: string };
  output: { size: number; sha256?: string };
  docs: number;
  /** Estimated tokens of the documents (⌈UTF-8 bytes / 4⌉ each). */
  tokens?: number;
  /** The taggers that wrote this file with their options as they ran (defaults filled in): the index's explanations read thresholds from them. */
  taggers?: { name: string; prefix: string; options: unknown }[];
}

/**
 * The markers of a file whose outputs are complete (null: tag it). A marker without content hashes (written
 * before run manifests) does not count, so the file is tagged once more and its manifest entry is real.
 * With `skipExisting`, outputs without a marker (written by Dolma, say) count as done: null in the list.
 */
export async function doneMarkers(input: string, outputs: readonly string[], fp: string, skipExisting = false): Promise<(Marker | null)[] | null> {
  const inStat = await stat(input);
  const markers: (Marker | null)[] = [];
  for (const out of outputs) {
    const outStat = await stat(out).catch(() => null);
    if (!outStat) return null;
    const marker = (await readFile(markerPath(out), 'utf8').then(JSON.parse, () => null)) as Marker | null;
    if (marker === null) {
      if (skipExisting) {
        markers.push(null);
        continue;
      }
      return null;
    }
    const same = marker.fingerprint === fp && marker.input.size === inStat.size && marker.input.mtimeMs === inStat.mtimeMs && marker.output.size === outStat.size;
    if (!same || marker.input.sha256 === undefined || marker.output.sha256 === undefined) return null;
    markers.push(marker);
  }
  return markers;
}

/** Writes the markers of a file just tagged (while its lock is still held, so a run waiting for it finds them). */
export async function writeMarkers(
  input: string,
  outputs: readonly OutputSet[],
  fp: string,
  r: { inputSha256: string; docs: number; tokens: number; outputs: { sha256: string }[] },
): Promise<Marker[]> {
  const inStat = await stat(input);
  const out: Marker[] = [];
  for (const [k, o] of outputs.entries()) {
    const marker: Marker = {
      fingerprint: fp,
      input: { size: inStat.size, mtimeMs: inStat.mtimeMs, sha256: r.inputSha256 },
      output: { size: (await stat(o.path)).size, sha256: (r.outputs[k] as { sha256: string }).sha256 },
      docs: r.docs,
      tokens: r.tokens,
      taggers: o.taggers.map((t) => ({ name: t.spec.name, prefix: t.prefix, options: t.options })),
    };
    await writeFileAtomic(markerPath(o.path), JSON.stringify(marker) + '\n', { mkdir: true });
    out.push(marker);
  }
  return out;
}
