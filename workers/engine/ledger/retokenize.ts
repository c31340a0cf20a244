// The tokens side of `assay remove`: the recorded tokens run again, over the new version of the mix output it read.
import { relative, resolve, sep } from 'node:path';
import { AssayError } from '../errors.js';
import { loadManifest } from '../manifest/read.js';
import { manifestPathFor } from '../manifest/schema.js';
import { runTokens, type TokensOptions } from '../tokenize/runtime.js';

/**
 * Reruns the tokens run recorded in `<from>/.assay/manifest.json` with the same settings and seed, its inputs
 * under `oldOutput` swapped for their copies under `newOutput`. Same file names in the same order give the same
 * shuffle, so the result equals tokenizing a fresh mix without the removed documents.
 */
export async function retokenize(from: string, destination: string, oldOutput: string, newOutput: string, opts: { signal?: AbortSignal; log?: (m: string) => void }): Promise<string> {
  const loaded = await loadManifest(manifestPathFor(resolve(from)));
  const m = loaded.manifest;
  if (m.stage !== 'tokens') throw new AssayError('CONFIG', `${loaded.path} is a ${m.stage} manifest, not a tokens run's`, { field: 'tokens' });
  if (m.redacted.length > 0) throw new AssayError('CONFIG', `${loaded.path} has redacted settings (${m.redacted.join(', ')}); rerun tokens by hand`, { field: 'tokens' });
  const { resolved: _resolved, ...given } = m.config as TokensOptions & { resolved?: unknown };
  const inputs = m.inputs.filter((i) => i.role === 'documents').map((i) => i.path);
  const read = inputs.filter((p) => p.startsWith(oldOutput + sep));
  if (read.length === 0) throw new AssayError('CONFIG', `the tokens run in ${from} did not read ${oldOutput}`, { field: 'tokens' });
  const documents = inputs.map((p) => (p.startsWith(oldOutput + sep) ? resolve(newOutput, relative(oldOutput, p)) : p));
  await runTokens({ ...given, documents, destination: resolve(destination), ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.log ? { log: opts.log } : {}) });
  return resolve(destination);
}
