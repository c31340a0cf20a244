// A run's page: its manifest with the chain of parent runs (`runs.manifest`), the search of its removal ledger (`runs.locate`) and its token ledger (`runs.ledger`).
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { ChainEntry, LocatedDocument, LocateQuery, LocateResult, RunManifestView, RunTokenLedger } from '../../shared/contract/index.js';
import { isAssayError } from '../engine/errors.js';
import { locate } from '../engine/ledger/locate.js';
import { runTokenLedger } from '../engine/ledger/run-tokens.js';
import { loadChain, type ChainNode } from '../engine/manifest/chain.js';
import { folderOf, resolveManifest } from '../engine/manifest/read.js';
import { HostError } from './errors.js';
import { isInside, resolveInside } from './paths.js';

/** Workspace-relative (`/`-separated) when inside, else as recorded. */
const shown = (root: string, abs: string): string => (isAbsolute(abs) && isInside(root, abs) ? relative(root, abs).split(sep).join('/') || '.' : abs);

/** Where a run's manifest is: the output folder named, a manifest file, an output file; `.assay` (an index job's) means the index's. */
function target(root: string, path: string): string {
  const abs = resolveInside(root, path);
  return abs === join(root, '.assay') ? root : abs;
}

async function loaded(root: string, path: string) {
  try {
    return await resolveManifest(target(root, path));
  } catch (e) {
    if (isAssayError(e)) throw new HostError('NOT_FOUND', `path: ${e.message.split(root + sep).join('')}`, 'path');
    throw e;
  }
}

/** The chain depth first from the run, each run once (a repeat is listed, not expanded). */
function flatten(root: string, node: ChainNode): ChainEntry[] {
  const out: ChainEntry[] = [];
  const seen = new Set<string>();
  const entry = (path: string, stage: string, depth: number, more: Partial<ChainEntry>): ChainEntry => ({
    path: shown(root, path), folder: shown(root, folderOf(path)), inside: isInside(root, path), stage, depth, status: 'same', ...more,
  });
  const walk = (n: ChainNode, depth: number, status: Partial<ChainEntry>): void => {
    const repeat = seen.has(n.path);
    out.push(entry(n.path, n.manifest.stage, depth, { ended: n.manifest.run.ended, ...status, ...(repeat && { repeat: true }) }));
    if (repeat) return;
    seen.add(n.path);
    for (const p of n.parents) {
      const st = { status: p.status, ...(p.error !== undefined && { error: p.error.split(root + sep).join('') }) };
      if (p.node) walk(p.node, depth + 1, p.cycle ? { ...st, repeat: true } : st);
      else out.push(entry(p.ref.path, p.ref.stage, depth + 1, st));
    }
  };
  walk(node, 0, {});
  return out;
}

export async function runManifest(root: string, path: string): Promise<RunManifestView> {
  const m = await loaded(root, path);
  const chain = await loadChain(m);
  const folder = folderOf(m.path);
  return {
    path: shown(root, m.path),
    folder: shown(root, folder),
    sha256: m.sha256,
    manifest: m.manifest,
    chain: flatten(root, chain),
    ledger: existsSync(join(folder, '.assay', 'ledger.sqlite')),
  };
}

/** Paths of a located document, workspace-relative where inside. */
function relativize(root: string, d: LocatedDocument): LocatedDocument {
  const r = (p: string): string => shown(root, p);
  return {
    ...d,
    ledger: r(d.ledger),
    output: r(d.output),
    input: { ...d.input, file: r(d.input.file) },
    shard: d.shard && { ...d.shard, file: r(d.shard.file) },
    tokens: d.tokens.map((t) => ({ ...t, npy: r(t.npy), ledger: r(t.ledger) })),
  };
}

/**
 * Searches the ledger(s) in a run's folder. `contains` reads the run's input texts: only when every documents
 * file its manifest lists is inside the workspace (the app reads no text outside it); id, url and hash read none.
 */
export async function runLocate(root: string, path: string, query: LocateQuery, limit: number): Promise<LocateResult> {
  const m = await loaded(root, path);
  const folder = folderOf(m.path);
  if ('contains' in query) {
    const real = realpathSync(root);
    const outside = m.manifest.inputs.find((i) => i.role === 'documents' && !isInside(real, existsSync(i.path) ? realpathSync(i.path) : i.path));
    if (outside) throw new HostError('FORBIDDEN', `query.contains: this run read ${basename(dirname(outside.path))}/${basename(outside.path)} outside the workspace; search by id, url or text hash instead`, 'query');
  }
  let r: LocateResult;
  try {
    // The run's own ledger, with token ranges from any tokens run in the workspace that read its shards.
    r = await locate(root, query, { within: folder, limit, signal: AbortSignal.timeout(120_000) });
  } catch (e) {
    if (isAssayError(e)) throw new HostError(e.code === 'CANCELLED' ? 'INTERNAL' : 'BAD_REQUEST', `query: ${e.message.split(root + sep).join('')}`, 'query');
    throw e;
  }
  return { ledgers: r.ledgers.map((l) => shown(root, l)), matches: r.matches.map((d) => relativize(root, d)), truncated: r.truncated };
}

/**
 * A finished mix output's token ledger (`assay ledger OUTPUT_DIR`): tokens runs that read it are looked for in the
 * workspace only. One SQL aggregate over its ledger and a few manifests, so it is answered on this thread.
 */
export async function runLedger(root: string, path: string, epochs?: number): Promise<RunTokenLedger> {
  const m = await loaded(root, path);
  if (m.manifest.stage !== 'mix' && m.manifest.stage !== 'remove') throw new HostError('BAD_REQUEST', `path: a ${m.manifest.stage} run has no token ledger (only mix outputs do)`, 'path');
  let r: RunTokenLedger;
  try {
    r = await runTokenLedger(folderOf(m.path), { workspace: root, ...(epochs !== undefined && { epochs }), signal: AbortSignal.timeout(120_000) });
  } catch (e) {
    if (isAssayError(e)) throw new HostError('NOT_FOUND', `path: ${e.message.split(root + sep).join('')}`, 'path');
    throw e;
  }
  const note = (s: string): string => s.split(root + sep).join('');
  return { ...r, output: shown(root, r.output), tokensRun: r.tokensRun === null ? null : shown(root, r.tokensRun), notes: r.notes.map(note), tokens: { ...r.tokens, note: note(r.tokens.note) }, tokenSources: Object.fromEntries(Object.entries(r.tokenSources).map(([k, v]) => [k, { ...v, from: note(v.from) }])) as RunTokenLedger['tokenSources'] };
}
