// `assay minhash -c config`: DataTrove/FineWeb MinHash near-dedup into Dolma attributes, with progress and a summary.
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { minhashConfig, type MinhashConfig } from '../../../shared/dedupe/minhash-schema.js';
import { parseConfigText } from '../../../shared/recipe/load.js';
import { runMinhash, type MinhashSummary } from '../dedupe/minhash/index.js';
import { AssayError } from '../errors.js';
import { RecipeError } from '../mix/config.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter, formatBytes } from './progress-bar.js';
import { stderrLine } from './stderr.js';

export async function loadMinhashConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<MinhashConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
  const r = parseConfigText(text, minhashConfig, { env, cpuCount: cpus().length }, 'a minhash config must be a mapping with `documents` and `name`');
  if (!r.ok) throw new RecipeError(path, r.issues);
  return r.config;
}

export function formatMinhashSummary(s: MinhashSummary): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  return (
    `minhash over ${s.files.length} file(s), ${n(s.documents)} docs, ${formatBytes(s.bytes)} in ${s.elapsedSec.toFixed(1)} s ` +
    `(${n(s.documents - s.signed)} too short to sign)\n` +
    `${n(s.clusters)} cluster(s) of ${n(s.clusteredDocs)} docs: ${n(s.duplicates)} duplicate(s) to drop, ${n(s.matches)} band match(es)` +
    (s.maxPartitions > 1 ? `; buckets split into up to ${s.maxPartitions} partitions to fit max_memory_mb` : '') +
    '\n' +
    s.files
      .slice(0, 10)
      .map((f) => `  ${f.output}\n`)
      .join('')
  );
}

export async function minhashCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const path = stringOption(args, 'config');
  if (!path) throw new UsageError('minhash needs -c CONFIG (YAML or JSON: documents, name, n_grams, num_buckets, ...)');
  const cfg = await loadMinhashConfig(path);
  const quiet = args.options.get('quiet') === true;
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runMinhash(cfg, { signal, onProgress: printer.update, log: stderrLine });
    printer.done();
    if (!quiet) process.stdout.write(formatMinhashSummary(s));
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
