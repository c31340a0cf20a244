// Writing a run manifest at the end of a successful stage: provenance, redacted config, inputs, outputs, parents.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../io/index.js';
import { toolInfo } from './provenance.js';
import { findManifestListing, relativeTo, type LoadedManifest } from './read.js';
import { canonicalJson, redactConfig, sha256Hex } from './redact.js';
import { MANIFEST_SCHEMA, MANIFEST_VERSION, manifestPathFor, type InputEntry, type OutputEntry, type ParentRef, type RunManifest, type SourceCount, type Stage, type TokenCount } from './schema.js';

/** A file the stage read, with the sha256 its reader computed; size and mtime are taken here when absent. */
export interface InputRecord {
  path: string;
  role: string;
  sha256: string;
  size?: number;
  mtimeMs?: number;
}

/** A file the stage wrote (absolute path), with what its writer measured. */
export interface OutputRecord {
  path: string;
  role: string;
  size: number;
  sha256: string;
  docs: number | null;
  tokens: TokenCount | null;
  bySource?: Record<string, SourceCount>;
}

/** What a stage knows about its run as a whole. */
export interface RunInfo {
  stage: Stage;
  started: Date;
  /** The resolved config as the stage ran it (secrets are redacted here). */
  config: unknown;
  seeds?: Record<string, number>;
}

/**
 * sha256 of a file by reading it once more. Stages hash while they read; this is only for files a stage did
 * not read in this run and for which no earlier hash was kept (state written before run manifests existed).
 */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Token estimate of a text as the index makes it: ⌈UTF-8 bytes / 4⌉. */
export const estimateTokens = (utf8Bytes: number): number => Math.ceil(utf8Bytes / 4);

/** Adds one document to per-source counts (a file's `bySource`). */
export function countSource(by: Record<string, { docs: number; tokens: number }>, source: unknown, tokens: number): void {
  const key = typeof source === 'string' ? source : '';
  const c = (by[key] ??= { docs: 0, tokens: 0 });
  c.docs++;
  c.tokens += tokens;
}

/** Per-source counts as recorded, keys sorted, tokens labelled. */
export function sourceCounts(by: Record<string, { docs: number; tokens: number }>, kind: TokenCount['kind']): Record<string, SourceCount> {
  return Object.fromEntries(
    Object.keys(by)
      .sort()
      .map((k) => [k, { docs: by[k]!.docs, tokens: { count: by[k]!.tokens, kind } }]),
  );
}

/** Sums per-source counts of several files. */
export function addSourceCounts(into: Record<string, SourceCount>, more: Record<string, SourceCount> | undefined): void {
  for (const [k, c] of Object.entries(more ?? {})) {
    const t = into[k];
    into[k] = t ? { docs: t.docs + c.docs, tokens: { count: t.tokens.count + c.tokens.count, kind: t.tokens.kind === 'exact' && c.tokens.kind === 'exact' ? 'exact' : 'estimate' } } : c;
  }
}

const byPath = <T extends { path: string }>(a: T, b: T): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * Writes `<folder>/.assay/manifest.json` atomically. Inputs and outputs are sorted by path, so a rerun with the
 * same inputs writes the same manifest apart from times whatever order pool workers finished in. Parents are the
 * manifests that list an input among their outputs (found by walking up from it); a manifest never names itself.
 * `parentCache` lets one run writing several manifests look each folder up once.
 */
export async function writeRunManifest(
  folder: string,
  run: RunInfo,
  inputs: readonly InputRecord[],
  outputs: readonly OutputRecord[],
  parentCache: Map<string, LoadedManifest | null> = new Map(),
  /** Where to write it, when not `<folder>/.assay/manifest.json` (the index: `<root>/.assay/index/manifest.json`). */
  manifestPath?: string,
): Promise<string> {
  const dir = resolve(folder);
  const own = manifestPath ?? manifestPathFor(dir);
  const unique = new Map<string, InputRecord>();
  for (const i of inputs) unique.set(`${resolve(i.path)}\0${i.role}`, { ...i, path: resolve(i.path) });
  const parents: ParentRef[] = [];
  const parentIndex = new Map<string, number>();
  const entries: InputEntry[] = [];
  for (const i of [...unique.values()].sort(byPath)) {
    const st = i.size === undefined || i.mtimeMs === undefined ? await stat(i.path) : null;
    const p = await findManifestListing(i.path, parentCache);
    let parent: number | null = null;
    if (p !== null && p.path !== own) {
      parent = parentIndex.get(p.path) ?? null;
      if (parent === null) {
        parent = parents.length;
        parentIndex.set(p.path, parent);
        parents.push({ path: p.path, stage: p.manifest.stage, sha256: p.sha256, contentSha256: p.contentSha256 });
      }
    }
    entries.push({ path: i.path, role: i.role, size: i.size ?? st!.size, mtimeMs: i.mtimeMs ?? st!.mtimeMs, sha256: i.sha256, parent });
  }
  const outs: OutputEntry[] = outputs
    .map((o) => ({ path: relativeTo(dir, resolve(o.path)), role: o.role, size: o.size, sha256: o.sha256, docs: o.docs, tokens: o.tokens, ...(o.bySource ? { bySource: o.bySource } : {}) }))
    .sort(byPath);
  const { config, redacted } = redactConfig(run.config);
  const ended = new Date();
  const manifest: RunManifest = {
    schema: MANIFEST_SCHEMA,
    version: MANIFEST_VERSION,
    stage: run.stage,
    folder: dir,
    tool: toolInfo(),
    run: { started: run.started.toISOString(), ended: ended.toISOString(), elapsedSec: (ended.getTime() - run.started.getTime()) / 1000, status: 'success', exitCode: 0 },
    config,
    configSha256: sha256Hex(canonicalJson(config)),
    redacted,
    seeds: Object.fromEntries(Object.entries(run.seeds ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))),
    inputs: entries,
    outputs: outs,
    parents,
    totals: totalsOf(outs),
  };
  await writeFileAtomic(own, JSON.stringify(manifest, null, 2) + '\n', { mkdir: true });
  // The new manifest replaces what the cache knew of this folder (a later manifest of the run may read it).
  parentCache.delete(own);
  return own;
}

/** Documents and tokens over the files that hold documents (roles `documents` and `tokens`; metadata twins are not counted twice). */
function totalsOf(outs: readonly OutputEntry[]): RunManifest['totals'] {
  const counted = outs.filter((o) => o.docs !== null && o.role !== 'token-metadata' && o.role !== 'bloom_filter');
  const docs = counted.reduce((n, o) => n + (o.docs ?? 0), 0);
  const withTokens = counted.filter((o) => o.tokens !== null);
  const tokens: TokenCount | null = withTokens.length
    ? { count: withTokens.reduce((n, o) => n + o.tokens!.count, 0), kind: withTokens.every((o) => o.tokens!.kind === 'exact') ? 'exact' : 'estimate' }
    : null;
  const bySource: Record<string, SourceCount> = {};
  for (const o of counted) addSourceCounts(bySource, o.bySource);
  const sorted = Object.fromEntries(Object.keys(bySource).sort().map((k) => [k, bySource[k]!]));
  return { docs, tokens, ...(Object.keys(sorted).length ? { bySource: sorted } : {}) };
}

/** `…/attributes/<name>` of an attribute file written for set `name` (one manifest per dataset root and set). */
export function attributeSetFolder(attributeFile: string, name: string): string {
  const abs = resolve(attributeFile);
  const marker = `/attributes/${name}/`;
  const at = abs.indexOf(marker);
  return at >= 0 ? abs.slice(0, at + marker.length - 1) : dirname(abs);
}
