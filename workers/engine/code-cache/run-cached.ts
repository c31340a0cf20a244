// Runs a CommonJS bundle through V8's code cache: each first run saves the code V8 compiled, later runs start from it.
// Why: a cold `assay tag` spends most of its start-up compiling and first-running our code, and Node 20 caches
// compiled code only for scripts (vm.Script), not for ES modules. The cache is only a faster start: a missing,
// stale or unwritable one means compiling as usual. Built to dist/engine/code-cache.js for bin/assay.js.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Script } from 'node:vm';
import { tuneV8 } from '../v8-tuning.js';

/** Each .cjs bundle's first line (scripts/build-cached.mjs): a digest of the bundle, so a rebuilt one never meets old code. */
const DIGEST_PREFIX = '// assay-bundle ';

type Importer = (specifier: string) => Promise<unknown>;

/**
 * Runs `bundle` as the CommonJS module it is, compiled from `<cacheDir>/…-<key>.v8cache` when that exists and V8
 * accepts it (same bundle, V8 version and flags), else compiled afresh and saved when the process exits with code 0.
 * ASSAY_CODE_CACHE=0 turns the cache off; ASSAY_CODE_CACHE=debug reports on stderr what happened.
 */
export function runCached(path: string, cacheDir: string, key: string): void {
  // Before the cache is read: V8 rejects a cache made under other flags (v8-tuning.ts).
  try {
    tuneV8();
  } catch (e) {
    // A bad ASSAY_V8_BUDGET slows nothing down that V8 would not: said, not fatal (runTag refuses it).
    process.stderr.write(`assay: ${(e as Error).message}; V8's default budget is used\n`);
  }
  const bundle = resolve(path);
  const mode = process.env.ASSAY_CODE_CACHE;
  const source = readFileSync(bundle, 'utf8');
  const firstLine = source.slice(0, source.indexOf('\n'));
  const digest = firstLine.startsWith(DIGEST_PREFIX) ? firstLine.slice(DIGEST_PREFIX.length) : '';
  const cacheFile =
    mode === '0' || !/^[0-9a-f]{8,64}$/.test(digest)
      ? undefined
      : join(cacheDir, `${basename(bundle)}-${digest}-v8-${process.versions.v8}-${process.arch}-${key}${flagsTag()}.v8cache`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: this run compiles and writes it.
  }
  // The same wrapper as Node's own for CommonJS, on one line, so line numbers (and the source map) hold.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  const status = cacheFile === undefined ? 'off' : cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  if (mode === 'debug') process.stderr.write(`assay: code cache ${status}${cacheFile === undefined ? '' : `: ${cacheFile}`}\n`);
  if (cacheFile !== undefined && (status === 'none' || status === 'rejected')) {
    // At exit the cache holds every function this run compiled, not only the top level. A failed run (a config
    // error, say) stops early, and its cache would leave most of the code out.
    process.once('exit', (code) => {
      if (code === 0) save(script, cacheFile, mode === 'debug');
    });
  }
  // import() in a vm.Script needs --experimental-vm-modules on Node 20: the bundle imports packages and file URLs
  // through this one (workers/engine/import-module.ts).
  // eslint-disable-next-line no-restricted-syntax -- the import() importModule() calls: this module is an ES module
  (globalThis as { __assayImport?: Importer }).__assayImport = (specifier) => import(specifier);
  const module = { exports: {}, id: bundle, filename: bundle, loaded: false, children: [], paths: [] };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

/**
 * Node and V8 flags change what V8 compiles (a pool filling every core starts its workers `--single-threaded`; an
 * ASSAY_V8_BUDGET sets another budget), and V8 rejects a cache made under other flags: runs with other flags keep a
 * cache of their own instead of rewriting one.
 */
function flagsTag(): string {
  const budget = process.env.ASSAY_V8_BUDGET ?? '';
  if (process.execArgv.length === 0 && budget === '') return '';
  let h = 0x811c9dc5;
  for (const c of [...process.execArgv, budget].join('\0')) h = Math.imul(h ^ (c.codePointAt(0) as number), 0x01000193) >>> 0;
  return `-f${h.toString(16).padStart(8, '0')}`;
}

/** Written beside and renamed into place: processes starting meanwhile read the old file, the new one or none. */
function save(script: Script, file: string, debug: boolean): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, file);
    if (debug) process.stderr.write(`assay: code cache written: ${file}\n`);
  } catch (e) {
    // A read-only install: every run compiles, as without the cache.
    if (debug) process.stderr.write(`assay: code cache not written: ${(e as Error).message}\n`);
  }
}

/** The caches' folder for bundles in `engineDir` (dist/engine): dist/code-cache. */
export const cacheDirFor = (engineDir: string): string => join(engineDir, '..', 'code-cache');
