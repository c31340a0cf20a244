// Which WARC files a run reads and where each one's documents go: DEST/documents/<name relative to its glob's base>.jsonl.gz.
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AssayError } from '../errors.js';
import { expandGlobs, hasGlob } from '../io/index.js';
import type { WarcTask } from './types.js';

/** The folder a pattern's matches are named relative to: its components before the first one with a glob. */
export function globBase(pattern: string): string {
  if (!hasGlob(pattern)) return dirname(pattern);
  const parts = pattern.split('/');
  const at = parts.findIndex((p) => hasGlob(p));
  return parts.slice(0, at).join('/') || (pattern.startsWith('/') ? '/' : '.');
}

/** `x.warc.gz`, `x.warc`, `x.arc.gz`, `x.warc.zst` → `x.jsonl.gz`. */
export function outputName(rel: string): string {
  const stem = rel.replace(/\.(?:warc|arc)(?:\.(?:gz|zst))?$/i, '').replace(/\.(?:gz|zst)$/i, '');
  return `${stem}.jsonl.gz`;
}

export async function planWarcTasks(patterns: readonly string[], destination: string, cwd: string, log?: (message: string) => void): Promise<WarcTask[]> {
  const tasks: WarcTask[] = [];
  const seenInputs = new Set<string>();
  const byOutput = new Map<string, string>();
  for (const pattern of patterns) {
    const base = resolve(cwd, globBase(pattern));
    for (const p of await expandGlobs([pattern], { cwd, onNote: log })) {
      const input = resolve(cwd, p);
      if (seenInputs.has(input)) continue;
      seenInputs.add(input);
      const rel = relative(base, input).split(sep).join('/');
      const output = join(resolve(cwd, destination), 'documents', outputName(rel));
      const other = byOutput.get(output);
      if (other !== undefined) throw new AssayError('CONFIG', `${other} and ${input} would both write ${output}`, { field: 'documents' });
      byOutput.set(output, input);
      tasks.push({ input, output, rel });
    }
  }
  if (tasks.length === 0) throw new AssayError('CONFIG', `no WARC files match ${patterns.map((d) => `'${d}'`).join(', ')}`, { field: 'documents' });
  return tasks;
}
