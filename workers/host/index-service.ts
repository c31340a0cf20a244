// The preview engine as the host holds it: in a worker thread (heavy calls queue there), light facts answered here, a clear error while no index exists.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AttributeKeyInfo, DocumentDetail, DocumentPage, DocumentQuery, ExplainResult, Histogram, IndexStatus, LintIssue, PlanRequest, PlanResult, PreviewResult, RecipeDiffResult, SampleBucket, SourceInfo, TokenLedgerResult } from '../../shared/contract/index.js';
import { composed, forgetComparisons, isComposed, type ComposedMethods } from './compare-docs.js';
import { HostError } from './errors.js';
import type { EngineSummary } from './preview-protocol.js';
import { snapshotStale, summarize } from './preview-status.js';
import { PreviewThread, type PreviewThreadOptions } from './preview-thread.js';

/** The part of the engine's PreviewEngine (workers/engine/index) the host serves. */
export interface PreviewEngineLike {
  status(): IndexStatus;
  sources(): SourceInfo[];
  files(): { path: string; docs: number; bytes: number }[];
  /** Exact token counts of an indexed documents file by line (null: estimated), with its size when indexed; null when not indexed. */
  fileTokens(path: string): { bytes: number; counts: (number | null)[] } | null;
  catalogue(): AttributeKeyInfo[];
  preview(recipeText: string, opts?: { ids?: boolean }): PreviewResult;
  /** Documents whose fate differs between two recipes (old, new), grouped, with up to `samples` ids per group. */
  diff(oldText: string, newText: string, opts?: { oldPath?: string; newPath?: string; samples?: number }): RecipeDiffResult;
  samples(recipeText: string, rule: number, bucket: SampleBucket, offset: number, limit: number): { ids: string[]; total: number; bucket: SampleBucket };
  explain(recipeText: string, id: string): ExplainResult;
  lint(recipeText: string): LintIssue[];
  /** Per source tokens raw → filtered → sampled → seen (the token ledger), predicted from the index. */
  tokenLedger(recipeText: string, opts?: { epochs?: number }): TokenLedgerResult;
  /** The mix planner: sample fractions and repeats for a budget and target shares, written into the recipe text. */
  plan(recipeText: string, req: PlanRequest): PlanResult;
  histogram(key: string, bins: number): Histogram;
  documentsPage(q: DocumentQuery): DocumentPage;
  document(id: string, opts?: { search?: string }): DocumentDetail;
  /** Writes every row the query selects to `path` (absolute, already confined) as CSV or JSONL. */
  exportDocuments(q: Omit<DocumentQuery, 'offset' | 'limit'>, format: 'csv' | 'jsonl', path: string): { rows: number; bytes: number };
  reload(): void;
  close(): void;
}

export type OpenEngine = (root: string) => PreviewEngineLike;

/**
 * Every engine method as the host calls it: asynchronously, wherever the engine runs. Methods added to
 * PreviewEngineLike are forwarded by name; the host's own composed methods (compare-docs.ts) run beside them.
 */
type Served = Omit<PreviewEngineLike, 'reload' | 'close'> & ComposedMethods;
export type RemoteEngine = {
  [K in keyof Served]: Served[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never;
};

/** Calls `method` on the engine: one of the host's composed methods, else the engine's own. */
export function callEngine(engine: PreviewEngineLike, method: string, args: unknown[]): unknown {
  if (isComposed(method)) return (composed[method] as (e: PreviewEngineLike, ...a: unknown[]) => unknown)(engine, ...args);
  return (engine as unknown as Record<string, (...a: unknown[]) => unknown>)[method]?.(...args);
}

/** Where the engine runs: a worker thread (the app) or this thread (tests that bring their own engine). */
export interface EngineBackend {
  call(method: string, args: unknown[]): Promise<unknown>;
  summary(): Promise<EngineSummary>;
  reload(): Promise<void>;
  close(): Promise<void>;
}

export const indexFile = (root: string): string => join(root, '.assay', 'index.sqlite');

export function workerBackend(opts: PreviewThreadOptions): EngineBackend {
  const thread = new PreviewThread(opts);
  return {
    call: (method, args) => thread.call(method, args),
    summary: () => thread.call('summary', []) as Promise<EngineSummary>,
    reload: async () => void (await thread.call('reload', [])),
    close: () => thread.close(),
  };
}

/** The engine on the calling thread, opened lazily: every call blocks this thread while it runs. */
export function inProcessBackend(root: string, open: OpenEngine): EngineBackend {
  let engine: PreviewEngineLike | null = null;
  const get = (): PreviewEngineLike => (engine ??= open(root));
  return {
    call: async (method, args) => callEngine(get(), method, args),
    summary: async () => summarize(get(), root),
    reload: async () => {
      if (engine) forgetComparisons(engine);
      void (engine ? engine.reload() : get());
    },
    close: async () => {
      engine?.close();
      engine = null;
    },
  };
}

export interface IndexInfo {
  sources: SourceInfo[];
  files: { path: string; docs: number; bytes: number }[];
  attributes: AttributeKeyInfo[];
  index: IndexStatus;
}

export class IndexService {
  #opened = false;
  #summary: Promise<EngineSummary> | null = null;
  readonly #remote: RemoteEngine;

  constructor(
    readonly root: string,
    private readonly backend: EngineBackend,
  ) {
    // `then` stays undefined so an engine handle is never mistaken for a promise.
    this.#remote = new Proxy({} as RemoteEngine, {
      get: (_t, name) => (typeof name === 'string' && name !== 'then' ? (...args: unknown[]) => this.backend.call(name, args) : undefined),
    });
  }

  get built(): boolean {
    return this.#opened || existsSync(indexFile(this.root));
  }

  /** The engine's methods; NOT_FOUND (with what to do) while the workspace has no index. */
  engine(): RemoteEngine {
    if (!this.built) throw new HostError('NOT_FOUND', 'this workspace has no attribute index yet: run an index job (or `assay index`) first');
    this.#opened = true;
    return this.#remote;
  }

  /**
   * Sources, files, catalogue and status of the open snapshot, without waiting for the engine: the
   * summary is taken once per snapshot, staleness is checked here on every call.
   */
  async info(): Promise<IndexInfo> {
    this.engine();
    const pending = (this.#summary ??= this.backend.summary());
    let s: EngineSummary;
    try {
      s = await pending;
    } catch (e) {
      if (this.#summary === pending) this.#summary = null;
      throw e;
    }
    return { sources: s.sources, files: s.files, attributes: s.attributes, index: { ...s.status, stale: await snapshotStale(this.root, s.generation) } };
  }

  /** After an index job: reload the engine (or open it), then summarize the new snapshot. Returns the documents indexed. */
  async refresh(): Promise<number> {
    this.engine();
    await this.backend.reload();
    const next = this.backend.summary();
    // Until the new summary is ready, info() keeps answering from the previous one.
    const s = await next;
    this.#summary = next;
    return s.status.docs;
  }

  async close(): Promise<void> {
    this.#summary = null;
    await this.backend.close();
  }
}
