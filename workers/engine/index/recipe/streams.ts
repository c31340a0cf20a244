// A recipe's streams against the index: their files (as `assay mix` would glob them), documents and merge scope.
import { join } from 'node:path';
import type { MixerConfig, StreamConfig } from '../../../../shared/recipe/schema.js';
import { AssayError, type AssayErrorCode } from '../../errors.js';
import { attributePathFor } from '../../io/index.js';
import { Bitset } from '../preview/bitset.js';
import type { FileInfo, IndexData } from '../store/data.js';
import type { MergeScope } from './context.js';
import { matchGlob } from './glob-match.js';

export interface StreamScope {
  index: number;
  name: string;
  field: string;
  config: StreamConfig;
  /** Files in the order the mixer reads them. */
  files: FileInfo[];
  docs: Bitset;
  /** The same documents as [start, end) runs, for loops that visit every one. */
  ranges: [number, number][];
  count: number;
  merge: MergeScope;
  /** Identifies the documents and the merge, for caches of rule results. */
  key: string;
  /** What makes `assay mix` fail on a file before it evaluates its documents (missing or broken attributes, bad lines). */
  problems: { file: FileInfo; error: AssayError }[];
}

/** Merge scopes are shared by streams listing the same attribute sets. */
export function mergeScope(data: IndexData, sets: readonly string[], cache: Map<string, MergeScope>): MergeScope {
  const key = JSON.stringify(sets);
  let m = cache.get(key);
  if (m === undefined) {
    const hasCursor = new Uint8Array(data.n);
    for (const f of data.files) if (sets.some((s) => f.sets.has(s))) hasCursor.fill(1, f.start, f.start + f.docs);
    m = { sets: [...sets], hasCursor, key };
    cache.set(key, m);
  }
  return m;
}

type Resolved = Omit<StreamScope, 'index' | 'name' | 'field' | 'config'>;

/**
 * Streams resolve to the same documents whenever their globs, sets and missing-attribute policy
 * are the same, which is every keystroke of a threshold edit: `cache` keeps them (and so the
 * identity of their document sets, which other caches rely on).
 */
export function resolveStreams(config: MixerConfig, data: IndexData, root: string, merges: Map<string, MergeScope>, cache: Map<string, Resolved>, baseDir: string = root): StreamScope[] {
  return config.streams.map((stream, index) => {
    const field = `streams[${index}]`;
    const cacheKey = JSON.stringify([stream.documents, stream.attributes, stream.assay?.allow_missing_attributes ?? false, stream.output.path]);
    const hit = cache.get(cacheKey);
    if (hit !== undefined) return { index, name: stream.name, field, config: stream, ...hit };
    const resolved = resolveOne(stream, index, data, root, merges, baseDir);
    cache.set(cacheKey, resolved);
    return { index, name: stream.name, field, config: stream, ...resolved };
  });
}

function resolveOne(stream: StreamConfig, index: number, data: IndexData, root: string, merges: Map<string, MergeScope>, baseDir: string): Resolved {
  {
    const field = `streams[${index}]`;
    const s3 = [...stream.documents, stream.output.path].find((p) => /^s3:\/\//i.test(p));
    if (s3) throw new AssayError('CONFIG', `S3 paths are not supported yet (${s3}); download the data first`, { field });
    const seen = new Set<number>();
    const files: FileInfo[] = [];
    for (const pattern of stream.documents) {
      for (const f of matchGlob(pattern, root, data.files, `${field}.documents`, baseDir)) {
        if (!seen.has(f.id)) {
          seen.add(f.id);
          files.push(f);
        }
      }
    }
    if (files.length === 0) {
      throw new AssayError('CONFIG', `no documents match ${stream.documents.map((d) => `'${d}'`).join(', ')}`, { field: `${field}.documents` });
    }
    const problems = checkFiles(files, stream, root);
    const docs = new Bitset(data.n);
    for (const f of files) for (let g = f.start; g < f.start + f.docs; g++) docs.set(g);
    const ranges: [number, number][] = [];
    for (const f of [...files].sort((x, y) => x.start - y.start)) {
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last[1] === f.start) last[1] += f.docs;
      else if (f.docs > 0) ranges.push([f.start, f.start + f.docs]);
    }
    const allowMissing = stream.assay?.allow_missing_attributes ?? false;
    const key = JSON.stringify([stream.attributes, files.map((f) => f.id), allowMissing]);
    return { files, docs, ranges, count: docs.count(), merge: mergeScope(data, stream.attributes, merges), key, problems };
  }
}

/** What would make `assay mix` fail while reading these files: at most one problem per file, the first it meets. */
function checkFiles(files: readonly FileInfo[], stream: StreamConfig, root: string): { file: FileInfo; error: AssayError }[] {
  const allowMissing = stream.assay?.allow_missing_attributes ?? false;
  const out: { file: FileInfo; error: AssayError }[] = [];
  for (const f of files) {
    const abs = join(root, f.path);
    const missing = stream.attributes.find((set) => !allowMissing && !f.sets.has(set));
    if (missing !== undefined) {
      out.push({ file: f, error: new AssayError('MISMATCH', `attribute set '${missing}' has no file for this documents file (expected ${attributePathFor(abs, missing)})`, { file: abs }) });
      continue;
    }
    const problem = stream.attributes.map((s) => f.sets.get(s)?.problem).find((p) => p !== null && p !== undefined) ?? f.problem;
    if (problem !== null) out.push({ file: f, error: recorded(problem) });
  }
  return out;
}

/** A problem the index recorded, raised as the mixer would raise it (its message already names file and line). */
function recorded(p: { code: string; message: string; line?: number }): AssayError {
  const e = new AssayError(p.code as AssayErrorCode, p.message);
  Object.assign(e, { line: p.line });
  return e;
}
