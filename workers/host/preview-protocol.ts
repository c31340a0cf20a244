// Messages between the host's main thread and its preview worker thread (workers/host/preview-worker.ts).
import type { AttributeKeyInfo, IndexStatus, SourceInfo } from '../../shared/contract/index.js';

export interface PreviewWorkerData {
  root: string;
  /** Int32 slot 0: the generation a call may run under; the main thread bumps it to cancel the running call. */
  flag: SharedArrayBuffer;
  /** Test hook: milliseconds every call spends busy before it starts (0 in the app). */
  delayMs?: number;
  /** Live previews of an index holding more than `above` documents run on a uniform sample of about `docs`. */
  sample?: SamplePolicy;
}

export interface SamplePolicy {
  above: number;
  docs: number;
}

/**
 * The workbench's sampling policy: above 5,000,000 indexed documents live previews are estimates from a
 * sample of 1,000,000 (figures with intervals; exact ones on request). ASSAY_PREVIEW_SAMPLE_ABOVE and
 * ASSAY_PREVIEW_SAMPLE_DOCS change the two numbers; ASSAY_PREVIEW_SAMPLE_ABOVE=off never samples.
 */
export function samplePolicy(env: NodeJS.ProcessEnv): SamplePolicy | undefined {
  const above = env.ASSAY_PREVIEW_SAMPLE_ABOVE;
  if (above === 'off') return undefined;
  const num = (v: string | undefined, def: number, name: string): number => {
    if (v === undefined || v === '') return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of documents (or 'off'), got '${v}'`);
    return n;
  };
  return { above: num(above, 5_000_000, 'ASSAY_PREVIEW_SAMPLE_ABOVE'), docs: num(env.ASSAY_PREVIEW_SAMPLE_DOCS, 1_000_000, 'ASSAY_PREVIEW_SAMPLE_DOCS') };
}

/** `method` is a PreviewEngine method name, or `summary` / `reload`; `env` replaces the worker's process.env when present. */
export interface CallMessage {
  type: 'call';
  id: number;
  method: string;
  args: unknown[];
  gen: number;
  env?: Record<string, string>;
}

/** A thrown value, kept precise enough to rebuild the same AssayError / HostError on the other side. */
export interface WireError {
  kind: 'assay' | 'host' | 'other';
  code: string;
  message: string;
  file?: string;
  line?: number;
  field?: string;
  column?: number;
  stack?: string;
}

export type ReplyMessage = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; error: WireError };

/** What workspace.info needs of the open snapshot: computed in the worker when the engine opens or reloads, answered from the main thread. */
export interface EngineSummary {
  sources: SourceInfo[];
  files: { path: string; docs: number; bytes: number }[];
  attributes: AttributeKeyInfo[];
  status: IndexStatus;
  /** The index generation the snapshot holds; a different one on disk means a newer build is not loaded yet. */
  generation: number;
}
