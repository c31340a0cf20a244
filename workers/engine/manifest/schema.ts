// The run manifest format (`<output>/.assay/manifest.json`, schema assay.run-manifest v1): types, validation, places.
import { join } from 'node:path';
import { z } from 'zod';

export const MANIFEST_SCHEMA = 'assay.run-manifest';
export const MANIFEST_VERSION = 1;

export const STAGES = ['warc', 'import', 'export', 'tag', 'dedupe', 'minhash', 'mix', 'tokens', 'index', 'remove'] as const;
export type Stage = (typeof STAGES)[number];

/** The manifest of an output folder (tag/dedupe/minhash: `…/attributes/<name>/`, mix: `output.path`, tokens: `destination`). */
export const manifestPathFor = (folder: string): string => join(folder, '.assay', 'manifest.json');
/**
 * The index's own: `<root>/.assay/index/manifest.json`. Not `<root>/.assay/manifest.json`, which would sit above
 * `<root>/documents/` and be taken for the documents' manifest when a later stage looks for the parents of a file.
 */
export const indexManifestPath = (root: string): string => join(root, '.assay', 'index', 'manifest.json');

const tokenCount = z.object({
  count: z.number().int().nonnegative(),
  /** `exact`: counted by the tokenizer; `estimate`: ⌈UTF-8 bytes of the text / 4⌉ per document, summed. */
  kind: z.enum(['exact', 'estimate']),
});
export type TokenCount = z.infer<typeof tokenCount>;

const sourceCount = z.object({ docs: z.number().int().nonnegative(), tokens: tokenCount });
export type SourceCount = z.infer<typeof sourceCount>;

const input = z.object({
  /** Absolute path as read. */
  path: z.string(),
  /** What the stage read it as: `documents`, `attributes/<set>`, `bloom_filter`, `tokenizer`… */
  role: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  /** sha256 of the bytes as stored (compressed), computed while the stage read them. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Index into `parents` of the manifest that lists this file as an output, or null (raw input). */
  parent: z.number().int().nonnegative().nullable(),
});
export type InputEntry = z.infer<typeof input>;

const output = z.object({
  /** Relative to the manifest's folder (`folder`), `/`-separated; `..` when the stage wrote outside it. */
  path: z.string(),
  role: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Documents the file holds (attributes files: the documents it annotates, one row each). */
  docs: z.number().int().nonnegative().nullable(),
  tokens: tokenCount.nullable(),
  /** Per document `source` ('' when absent), for files that hold documents. */
  bySource: z.record(z.string(), sourceCount).optional(),
});
export type OutputEntry = z.infer<typeof output>;

const parent = z.object({
  /** Absolute path of the parent manifest. */
  path: z.string(),
  stage: z.enum(STAGES),
  /** sha256 of the parent manifest file as it was when this run read it. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** sha256 of the parent's canonical JSON without its times (`timeFree`): equal across identical reruns. */
  contentSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ParentRef = z.infer<typeof parent>;

/**
 * A report derived from the folder after its run (`assay decon report`): added to the manifest in place, not an output
 * of the run, so it is left out of the manifest's content hash (`timeFree`) and a child that read the folder still
 * sees its parent as the same run. A rerun of the stage writes a manifest without it (the report is then stale).
 */
const report = z.object({
  /** Relative to `folder`, `/`-separated. */
  path: z.string(),
  role: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ReportEntry = z.infer<typeof report>;

export const runManifest = z.object({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.literal(MANIFEST_VERSION),
  stage: z.enum(STAGES),
  /** Absolute path of the folder this manifest describes (it lives in `<folder>/.assay/`). */
  folder: z.string(),
  tool: z.object({
    name: z.literal('assay'),
    version: z.string(),
    /** HEAD of the checkout the engine ran from, or null (installed package, no .git). */
    commit: z.string().nullable(),
    node: z.string(),
    host: z.string(),
    platform: z.string(),
  }),
  run: z.object({
    started: z.string(),
    ended: z.string(),
    elapsedSec: z.number(),
    /** A manifest is only written by a run that succeeded. */
    status: z.literal('success'),
    exitCode: z.literal(0),
  }),
  /** The config the stage ran, after `${oc.env:…}` interpolation and defaults, secrets redacted. */
  config: z.unknown(),
  configSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Dotted paths of config values replaced by `[REDACTED]`. */
  redacted: z.array(z.string()),
  seeds: z.record(z.string(), z.number()),
  inputs: z.array(input),
  outputs: z.array(output),
  parents: z.array(parent),
  totals: z.object({ docs: z.number().int().nonnegative(), tokens: tokenCount.nullable(), bySource: z.record(z.string(), sourceCount).optional() }),
  /** Reports written about the folder after the run (optional: manifests without it load as before). */
  reports: z.array(report).optional(),
});
export type RunManifest = z.infer<typeof runManifest>;
