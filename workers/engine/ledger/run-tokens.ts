// The token ledger of a finished mix run: per source raw → filtered → sampled → seen from its removal ledger, manifest and tokens run.
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SourceTokenLedger, StageFigures } from '../../../shared/contract/mixplan.js';
import type { RunTokenLedger } from '../../../shared/contract/run-ledger.js';
import { AssayError } from '../errors.js';
import { folderOf, loadManifest, type LoadedManifest } from '../manifest/read.js';
import { manifestPathFor } from '../manifest/schema.js';
import { sourceRows, type SourceRows } from './run-rows.js';
import { ledgerPathFor, openLedger } from './schema.js';

export interface RunLedgerOptions {
  /** Training epochs on top of the copies written (default 1). */
  epochs?: number;
  /** A tokens run's destination whose exact counts are the seen figures; else one is looked for under `workspace`. */
  tokens?: string;
  /** Where to look for a tokens run that consumed the output (default: the working directory). */
  workspace?: string;
  signal?: AbortSignal;
}

const zero = (): StageFigures => ({ docs: 0, bytes: 0, tokens: 0 });
const add = (a: StageFigures, b: StageFigures): void => {
  a.docs += b.docs;
  a.bytes += b.bytes;
  a.tokens += b.tokens;
};

/** Folders that hold data in bulk and never a run's `.assay`: not walked. */
const SKIP = new Set(['node_modules', '.git', 'documents', 'attributes']);

/** Manifests of tokens runs under `root` whose parents name `mix` (by path), newest first. */
async function tokensRunsOf(root: string, mix: LoadedManifest, signal?: AbortSignal): Promise<LoadedManifest[]> {
  const found: LoadedManifest[] = [];
  const walk = async (dir: string): Promise<void> => {
    if (signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!e.isDirectory() || SKIP.has(e.name)) continue;
      if (e.name !== '.assay') {
        await walk(join(dir, e.name));
        continue;
      }
      const m = await loadManifest(manifestPathFor(dir)).catch(() => null);
      if (m?.manifest.stage === 'tokens' && m.manifest.parents.some((p) => p.path === mix.path)) found.push(m);
    }
  };
  await walk(resolve(root));
  return found.sort((a, b) => b.manifest.run.ended.localeCompare(a.manifest.run.ended));
}

/** The tokens run to take exact counts from, or why none is used. */
async function pickTokensRun(mix: LoadedManifest, opts: RunLedgerOptions): Promise<{ run: LoadedManifest | null; notes: string[] }> {
  const notes: string[] = [];
  let candidates: LoadedManifest[];
  if (opts.tokens !== undefined) {
    const m = await loadManifest(manifestPathFor(resolve(opts.tokens)));
    if (m.manifest.stage !== 'tokens') throw new AssayError('CONFIG', `--tokens: this is a ${m.manifest.stage} run, not a tokens run`, { file: m.path });
    if (!m.manifest.parents.some((p) => p.path === mix.path)) throw new AssayError('CONFIG', `--tokens: this tokens run did not read ${folderOf(mix.path)}`, { file: m.path });
    candidates = [m];
  } else candidates = await tokensRunsOf(opts.workspace ?? process.cwd(), mix, opts.signal);
  for (const c of candidates) {
    const ref = c.manifest.parents.find((p) => p.path === mix.path)!;
    // Tokens of an earlier version of this output are not this output's tokens.
    if (ref.contentSha256 !== mix.contentSha256) {
      notes.push(`tokens run ${c.manifest.folder} read an earlier version of this output: its counts are not used`);
      continue;
    }
    // Its per-source counts cover every folder it read: only a run of this output alone is this output's.
    if (c.manifest.parents.length > 1) {
      notes.push(`tokens run ${c.manifest.folder} also read ${c.manifest.parents.length - 1} other run(s): its per-source counts are not this output's alone`);
      continue;
    }
    return { run: c, notes };
  }
  return { run: null, notes };
}

function tokenizerOf(run: LoadedManifest): string | undefined {
  const t = (run.manifest.config as { tokenizer?: { name_or_path?: unknown; nameOrPath?: unknown } } | null)?.tokenizer;
  const name = t?.name_or_path ?? t?.nameOrPath;
  return typeof name === 'string' ? name : undefined;
}

/** Per-source figures from the ledger's rows, the manifest's written counts and the tokens run's exact counts. */
function sourceLedger(source: string, rows: SourceRows, written: { docs: number; tokens: number } | undefined, exact: number | undefined, epochs: number): SourceTokenLedger {
  const { raw, filtered, kept } = rows;
  // Every kept document written the same number of times: the output's tokens ÷ that number are the sampled tokens.
  const uniform = kept.docs > 0 && rows.minCopies === rows.maxCopies;
  const repeat = kept.docs > 0 ? (uniform ? rows.maxCopies : rows.copies / kept.docs) : 1;
  const outTokens = exact ?? written?.tokens;
  const sampled: StageFigures = { ...kept, tokens: uniform && outTokens !== undefined ? outTokens / rows.maxCopies : kept.tokens };
  const seen: StageFigures = { docs: (written?.docs ?? rows.copies) * epochs, bytes: rows.copiedBytes * epochs, tokens: (outTokens ?? kept.tokens * repeat) * epochs };
  return {
    source,
    raw,
    filtered,
    sampled,
    seen,
    // On one basis (the input texts' estimates) so span replacement does not read as sampling.
    sampleRate: filtered.tokens > 0 ? kept.tokens / filtered.tokens : 1,
    repeat,
    share: 0,
    lostByRule: rows.lost,
  };
}

/** The ledger of the mix (or remove) output in `outputDir`. */
export async function runTokenLedger(outputDir: string, opts: RunLedgerOptions = {}): Promise<RunTokenLedger> {
  const t0 = performance.now();
  const epochs = opts.epochs ?? 1;
  const folder = resolve(outputDir);
  const mix = await loadManifest(manifestPathFor(folder));
  const stage = mix.manifest.stage;
  if (stage !== 'mix' && stage !== 'remove') throw new AssayError('CONFIG', `this is a ${stage} run's output; assay ledger OUTPUT_DIR reads a mix output`, { file: mix.path });
  const { db } = await openLedger(ledgerPathFor(folder), 'mix');
  let bySource: Map<string, SourceRows>;
  try {
    bySource = sourceRows(db, ledgerPathFor(folder));
  } finally {
    db.close();
  }
  const { run: tokensRun, notes } = await pickTokensRun(mix, opts);
  const written = mix.manifest.totals.bySource ?? {};
  const exact = tokensRun?.manifest.totals.bySource ?? {};
  const sources = [...bySource].map(([s, rows]) => sourceLedger(s, rows, written[s] && { docs: written[s].docs, tokens: written[s].tokens.count }, tokensRun ? (exact[s]?.tokens.count ?? 0) : undefined, epochs));
  // As the predicted ledger orders them (index/views/token-ledger.ts): most seen tokens first.
  sources.sort((x, y) => y.seen.tokens - x.seen.tokens || (x.source < y.source ? -1 : 1));
  const total = { raw: zero(), filtered: zero(), sampled: zero(), seen: zero() };
  for (const s of sources) for (const k of ['raw', 'filtered', 'sampled', 'seen'] as const) add(total[k], s[k]);
  for (const s of sources) s.share = total.seen.tokens > 0 ? s.seen.tokens / total.seen.tokens : 0;
  const removed = [...bySource.values()].reduce((n, r) => n + r.removed, 0);
  if (removed > 0) notes.push(`${removed.toLocaleString('en-US')} document(s) removed by request (assay remove) count as raw and filtered, not sampled`);
  const tokenizer = tokensRun ? tokenizerOf(tokensRun) : undefined;
  const uniform = [...bySource.values()].every((r) => r.kept.docs === 0 || r.minCopies === r.maxCopies);
  const input = { exact: false, from: 'removal ledger: ⌈UTF-8 bytes / 4⌉ of each input text' };
  const out = tokensRun
    ? { exact: true, from: `tokens run ${tokensRun.manifest.folder}${tokenizer ? ` (${tokenizer})` : ''}, as written (with BOS/EOS)` }
    : { exact: false, from: 'run manifest: ⌈UTF-8 bytes / 4⌉ of each output text' };
  return {
    output: folder,
    stage,
    sources,
    total,
    epochs,
    tokens: {
      kind: tokensRun ? 'partial' : 'estimate',
      ...(tokenizer !== undefined && { tokenizer }),
      note: tokensRun
        ? `sampled and seen tokens counted by ${tokenizer ?? 'the tokenizer'} (tokens run ${tokensRun.manifest.folder}); raw and filtered are estimates (⌈UTF-8 bytes / 4⌉ of the input texts)`
        : 'estimates (⌈UTF-8 bytes / 4⌉ per document): no tokens run of this output was found (give --tokens DIR)',
    },
    // Sampled tokens come from the output only where every kept document of a source was written equally often.
    tokenSources: { raw: input, filtered: input, sampled: uniform ? out : { exact: false, from: `${input.from} (copies differ within a source)` }, seen: out },
    tokensRun: tokensRun?.manifest.folder ?? null,
    notes,
    elapsedMs: Math.round(performance.now() - t0),
  };
}

export const isRunFolder = async (path: string): Promise<boolean> => stat(manifestPathFor(resolve(path))).then((s) => s.isFile(), () => false);
