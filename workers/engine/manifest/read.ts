// Reading run manifests: strict loading with errors naming the file, and finding the manifest that lists a file.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { AssayError } from '../errors.js';
import { canonicalJson, sha256Hex } from './redact.js';
import { indexManifestPath, MANIFEST_SCHEMA, MANIFEST_VERSION, manifestPathFor, runManifest, type RunManifest } from './schema.js';

export interface LoadedManifest {
  /** Absolute path of the manifest file. */
  path: string;
  manifest: RunManifest;
  /** sha256 of the file's bytes. */
  sha256: string;
  /** sha256 of its canonical JSON without times (see timeFree). */
  contentSha256: string;
}

/** Bad manifests are CONFIG errors (exit 2 from the CLI), each naming the file. */
const bad = (file: string, why: string): AssayError => new AssayError('CONFIG', why, { file });

/** Parses and validates manifest text; `file` is only used in messages. */
export function parseManifest(text: string, file: string): RunManifest {
  if (text.trim() === '') throw bad(file, 'empty run manifest (truncated?)');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    const truncated = /end of (json )?input|unterminated|unexpected end/i.test(msg) || !text.trimEnd().endsWith('}');
    throw bad(file, truncated ? `truncated run manifest: the JSON ends early (${msg})` : `not a run manifest: not JSON (${msg})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw bad(file, 'not a run manifest: expected a JSON object');
  const schema = (raw as { schema?: unknown }).schema;
  if (schema === undefined) throw bad(file, `not a run manifest: no "schema" field (Assay's say "${MANIFEST_SCHEMA}")`);
  if (schema !== MANIFEST_SCHEMA) throw bad(file, `another schema: ${JSON.stringify(schema)}, not "${MANIFEST_SCHEMA}"`);
  const version = (raw as { version?: unknown }).version;
  if (version !== MANIFEST_VERSION) throw bad(file, `${MANIFEST_SCHEMA} version ${JSON.stringify(version)}; this Assay reads version ${MANIFEST_VERSION}`);
  const r = runManifest.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const at = (issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
    throw bad(file, `invalid run manifest: ${at || '(root)'}: ${issue?.message ?? 'does not match the schema'}`);
  }
  return r.data;
}

/**
 * The manifest without its times (run start/end/elapsed, input mtimes), without parents' file hashes (which carry
 * their times) and without reports added after the run (schema.ts `reports`).
 */
export function timeFree(m: RunManifest): unknown {
  const { run, inputs, parents, reports: _reports, ...rest } = m;
  return {
    ...rest,
    run: { status: run.status, exitCode: run.exitCode },
    inputs: inputs.map(({ mtimeMs: _mtime, ...i }) => i),
    parents: parents.map(({ sha256: _sha, ...p }) => p),
  };
}

export const contentSha256 = (m: RunManifest): string => sha256Hex(canonicalJson(timeFree(m)));

export async function loadManifest(path: string): Promise<LoadedManifest> {
  const abs = resolve(path);
  let bytes: Buffer;
  try {
    bytes = await readFile(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw bad(abs, code === 'ENOENT' ? 'run manifest is missing' : code === 'EISDIR' ? 'is a folder, not a run manifest' : `cannot read run manifest: ${(e as Error).message}`);
  }
  const manifest = parseManifest(bytes.toString('utf8'), abs);
  return { path: abs, manifest, sha256: sha256Hex(bytes), contentSha256: contentSha256(manifest) };
}

/** The folder a manifest describes, from where the file is now (a moved dataset keeps working). */
export function folderOf(manifestPath: string): string {
  const dir = dirname(manifestPath);
  if (basename(dir) === 'index' && basename(dirname(dir)) === '.assay') return dirname(dirname(dir));
  return basename(dir) === '.assay' ? dirname(dir) : dir;
}

/** A path relative to the manifest's folder, `/`-separated (how outputs are recorded). */
export const relativeTo = (folder: string, file: string): string => relative(folder, file).split(sep).join('/');

/**
 * Finds, walking up from a file's folder, the nearest `.assay/manifest.json` that lists the file among its
 * outputs. Unreadable manifests on the way are skipped here (`strict` reports them instead). `cache` maps a
 * manifest path to its load result, for callers looking up many files.
 */
export async function findManifestListing(file: string, cache: Map<string, LoadedManifest | null> = new Map(), strict = false): Promise<LoadedManifest | null> {
  const abs = resolve(file);
  for (let dir = dirname(abs); ; ) {
    const candidate = manifestPathFor(dir);
    let loaded = cache.get(candidate);
    if (loaded === undefined) {
      loaded = null;
      if (await stat(candidate).then((s) => s.isFile(), () => false)) {
        try {
          loaded = await loadManifest(candidate);
        } catch (e) {
          if (strict) throw e;
        }
      }
      cache.set(candidate, loaded);
    }
    if (loaded !== null) {
      const rel = relativeTo(folderOf(candidate), abs);
      if (loaded.manifest.outputs.some((o) => o.path === rel)) return loaded;
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/**
 * What the user named (`assay manifest PATH`, `assay diff A B`): a manifest file, an output folder (its
 * `.assay/manifest.json`, or a dataset root's `.assay/index/manifest.json`), or an output file (the manifest
 * listing it). Anything else is a CONFIG error naming the path.
 */
export async function resolveManifest(path: string): Promise<LoadedManifest> {
  const abs = resolve(path);
  const st = await stat(abs).catch(() => null);
  if (st === null) throw bad(abs, 'no such file or folder (expected a run manifest, an output folder or an output file)');
  if (st.isDirectory()) {
    for (const candidate of [manifestPathFor(abs), indexManifestPath(abs)]) {
      if (await stat(candidate).then((s) => s.isFile(), () => false)) return loadManifest(candidate);
    }
    throw bad(abs, `no run manifest in this folder (looked for ${join('.assay', 'manifest.json')} and ${join('.assay', 'index', 'manifest.json')}); runs of this Assay write one when they succeed`);
  }
  // Inside .assay/ or named manifest.json: a manifest, so a damaged one is reported as such.
  if (basename(abs) === 'manifest.json' || abs.split(sep).includes('.assay')) return loadManifest(abs);
  const text = await readFile(abs, 'utf8').catch(() => '');
  let asManifest: unknown = null;
  if (abs.endsWith('.json') && text.trimStart().startsWith('{')) {
    try {
      return await loadManifest(abs);
    } catch (e) {
      asManifest = e;
    }
  }
  const listing = await findManifestListing(abs, new Map(), true);
  if (listing !== null) return listing;
  if (asManifest instanceof AssayError) throw asManifest;
  throw bad(abs, 'no run manifest lists this file as an output (looked in every .assay/manifest.json above it)');
}
