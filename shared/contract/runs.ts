// A run's page in the app: its manifest (workers/engine/manifest/schema.ts, as the app sees it) with the chain of parent runs, and ledger search params.
import { z } from 'zod';

/** Locate queries (`LocateQuery` in ledger.ts): exactly one key. */
export const locateQuery = z.union([
  z.object({ id: z.string().min(1).max(4096) }).strict(),
  z.object({ url: z.string().min(1).max(8192) }).strict(),
  z.object({ textHash: z.string().regex(/^[0-9a-fA-F]{64}$/, 'a text hash is 64 hex digits (sha256 of the UTF-8 text)') }).strict(),
  z.object({ contains: z.string().min(1).max(1000) }).strict(),
]);

export interface ManifestTokens {
  count: number;
  kind: 'exact' | 'estimate';
}

export interface ManifestSourceCount {
  docs: number;
  tokens: ManifestTokens;
}

/** A run manifest (schema `assay.run-manifest` v1), paths as recorded: inputs absolute, outputs relative to `folder`. */
export interface RunManifestInfo {
  schema: string;
  version: number;
  stage: string;
  folder: string;
  tool: { name: string; version: string; commit: string | null; node: string; host: string; platform: string };
  run: { started: string; ended: string; elapsedSec: number; status: string; exitCode: number };
  config: unknown;
  configSha256: string;
  redacted: string[];
  seeds: Record<string, number>;
  inputs: { path: string; role: string; size: number; mtimeMs: number; sha256: string; parent: number | null }[];
  outputs: { path: string; role: string; size: number; sha256: string; docs: number | null; tokens: ManifestTokens | null; bySource?: Record<string, ManifestSourceCount> }[];
  parents: { path: string; stage: string; sha256: string; contentSha256: string }[];
  totals: { docs: number; tokens: ManifestTokens | null; bySource?: Record<string, ManifestSourceCount> };
  /** Reports written about the folder after its run (`assay decon-report`), path relative to `folder`. */
  reports?: { path: string; role: string; size: number; sha256: string }[];
}

/** How a parent manifest compares with what the run recorded: see workers/engine/manifest/chain.ts. */
export type ParentStatus = 'same' | 'rerun' | 'changed' | 'missing' | 'invalid';

/** One run of the chain, for a link: `path` is workspace-relative when the manifest is inside the workspace (`inside`). */
export interface ChainEntry {
  /** The manifest file. */
  path: string;
  /** The folder it describes. */
  folder: string;
  inside: boolean;
  stage: string;
  ended?: string;
  /** 0: the run shown; 1: its parents; 2: theirs… */
  depth: number;
  status: ParentStatus;
  error?: string;
  /** Already listed higher up (a cycle, or a run two children share): not expanded again. */
  repeat?: boolean;
}

export interface RunManifestView {
  /** The manifest file and the folder it describes, workspace-relative. */
  path: string;
  folder: string;
  sha256: string;
  manifest: RunManifestInfo;
  /** The run, then its parents depth first (each with how it compares with what its child recorded). */
  chain: ChainEntry[];
  /** A removal ledger in the folder (`.assay/ledger.sqlite`): the ledger search has something to search. */
  ledger: boolean;
}
