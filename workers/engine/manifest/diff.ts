// What differs between two run manifests, times aside: config by key path, tool, seeds, inputs, outputs, parents, counts per source.
import type { RunManifest, SourceCount } from './schema.js';

/** A value that moved; `undefined` on one side means the key or file is absent there. */
export interface Change<T = unknown> {
  path: string;
  old?: T;
  new?: T;
}

export interface FileChange {
  path: string;
  role: string;
  change: 'added' | 'removed' | 'changed';
  old?: { sha256: string; size: number; docs?: number | null };
  new?: { sha256: string; size: number; docs?: number | null };
}

export interface SourceMove {
  source: string;
  docs: { old: number; new: number };
  tokens: { old: number; new: number; kind: 'exact' | 'estimate' };
}

export interface ManifestDiff {
  identical: boolean;
  /** stage, folder and tool fields (version, commit, node, host, platform). */
  run: Change<string | null>[];
  /** Key paths of the recorded (already redacted) config, `a.b[2].c`. */
  config: Change[];
  seeds: Change<number>[];
  inputs: FileChange[];
  outputs: FileChange[];
  /** Parent manifests by path, compared by content (their file hashes carry their times). */
  parents: Change<string>[];
  /** Documents and tokens over all outputs (`docs`, `tokens.count`, `tokens.kind`). */
  totals: Change<number | string>[];
  /** Documents and tokens per `source` over the files holding documents, only sources that moved. */
  bySource: SourceMove[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Leaf-level differences: objects by key, arrays by position (a rule inserted shows as the rules after it moving). */
export function diffValues(a: unknown, b: unknown, path = ''): Change[] {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffValues(a[k], b[k], path === '' ? k : `${path}.${k}`));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => diffValues(a[i], b[i], `${path}[${i}]`)).flat();
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  return [{ path: path || '(root)', ...(a === undefined ? {} : { old: a }), ...(b === undefined ? {} : { new: b }) }];
}

type FileLike = { path: string; role: string; sha256: string; size: number; docs?: number | null };

/** Files keyed by path and role; `changed` when the bytes (or the counts recorded for them) differ. */
function diffFiles(a: readonly FileLike[], b: readonly FileLike[]): FileChange[] {
  const key = (f: FileLike): string => `${f.path}\0${f.role}`;
  const side = (f: FileLike): NonNullable<FileChange['old']> => ({ sha256: f.sha256, size: f.size, ...(f.docs !== undefined ? { docs: f.docs } : {}) });
  const before = new Map(a.map((f) => [key(f), f]));
  const after = new Map(b.map((f) => [key(f), f]));
  const out: FileChange[] = [];
  for (const [k, f] of before) {
    const g = after.get(k);
    if (g === undefined) out.push({ path: f.path, role: f.role, change: 'removed', old: side(f) });
    else if (f.sha256 !== g.sha256 || f.size !== g.size || (f.docs ?? null) !== (g.docs ?? null)) out.push({ path: f.path, role: f.role, change: 'changed', old: side(f), new: side(g) });
  }
  for (const [k, g] of after) if (!before.has(k)) out.push({ path: g.path, role: g.role, change: 'added', new: side(g) });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function diffSources(a: Record<string, SourceCount> = {}, b: Record<string, SourceCount> = {}): SourceMove[] {
  const zero: SourceCount = { docs: 0, tokens: { count: 0, kind: 'exact' } };
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .map((source) => {
      const x = a[source] ?? zero;
      const y = b[source] ?? zero;
      const kind = (a[source] ?? y).tokens.kind === 'exact' && (b[source] ?? x).tokens.kind === 'exact' ? 'exact' : 'estimate';
      return { source, docs: { old: x.docs, new: y.docs }, tokens: { old: x.tokens.count, new: y.tokens.count, kind } } satisfies SourceMove;
    })
    .filter((m) => m.docs.old !== m.docs.new || m.tokens.old !== m.tokens.new);
}

/** `a` → `b`. Times (run start/end, input mtimes, parents' file hashes) are not compared. */
export function diffManifests(a: RunManifest, b: RunManifest): ManifestDiff {
  const run: Change<string | null>[] = [
    ...diffValues(a.stage, b.stage, 'stage'),
    ...diffValues(a.folder, b.folder, 'folder'),
    ...diffValues(a.tool, b.tool, 'tool'),
  ] as Change<string | null>[];
  const parents = diffValues(
    Object.fromEntries(a.parents.map((p) => [p.path, `${p.stage} ${p.contentSha256}`])),
    Object.fromEntries(b.parents.map((p) => [p.path, `${p.stage} ${p.contentSha256}`])),
  ) as Change<string>[];
  const d = {
    run,
    config: diffValues(a.config, b.config),
    seeds: diffValues(a.seeds, b.seeds) as Change<number>[],
    inputs: diffFiles(a.inputs, b.inputs),
    outputs: diffFiles(a.outputs, b.outputs),
    parents,
    totals: diffValues({ docs: a.totals.docs, tokens: a.totals.tokens }, { docs: b.totals.docs, tokens: b.totals.tokens }) as Change<number | string>[],
    bySource: diffSources(a.totals.bySource, b.totals.bySource),
  };
  return { identical: Object.values(d).every((l) => l.length === 0), ...d };
}
