// `assay dedupe -c config`: Dolma's bloom-filter deduper (documents / paragraphs modes) with progress and a summary.
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dedupeConfig, type DedupeConfig } from '../../../shared/dedupe/schema.js';
import { parseConfigText } from '../../../shared/recipe/load.js';
import { runDedupe, type DedupeSummary } from '../dedupe/index.js';
import { AssayError } from '../errors.js';
import { RecipeError } from '../mix/config.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter, formatBytes } from './progress-bar.js';
import { stderrLine } from './stderr.js';

export async function loadDedupeConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<DedupeConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
  const r = parseConfigText(text, dedupeConfig, { env, cpuCount: cpus().length }, 'a dedupe config must be a mapping with `documents`, `dedupe` and `bloom_filter`');
  if (!r.ok) throw new RecipeError(path, r.issues);
  return r.config;
}

export function formatDedupeSummary(s: DedupeSummary): string {
  const deduped = s.files.filter((f) => f.status === 'deduped').length;
  const kept = s.files.filter((f) => f.status === 'kept').length;
  const other = s.files.filter((f) => f.status === 'partition').length;
  const b = s.bloom;
  return (
    `deduped ${deduped} file(s), ${s.documents.toLocaleString('en-US')} docs, ${formatBytes(s.bytes)} in ${s.elapsedSec.toFixed(1)} s: ` +
    `${s.duplicateDocs.toLocaleString('en-US')} doc(s) with duplicate spans, ${s.spans.toLocaleString('en-US')} span(s)\n` +
    (kept ? `kept ${kept} file(s) already in the bloom filter (their attributes are from the run that added them)\n` : '') +
    (other ? `skipped ${other} file(s) of other file partitions\n` : '') +
    `bloom filter ${b.file}${b.created ? ' (new)' : ''}${b.readOnly ? ' (read-only)' : b.saved ? ' (saved)' : ''}: ` +
    `k=${b.k}, m=${b.m.toLocaleString('en-US')} bits (${formatBytes(b.sizeBytes)}), ${b.insertions.toLocaleString('en-US')} keys, ` +
    `fill ${(b.fillRatio * 100).toFixed(2)}%, false-positive rate now ≈ ${b.estimatedFalsePositiveRate.toExponential(2)}\n` +
    s.files
      .filter((f) => f.status === 'deduped')
      .slice(0, 10)
      .map((f) => `  ${f.output}\n`)
      .join('')
  );
}

export async function dedupeCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const path = stringOption(args, 'config');
  if (!path) throw new UsageError('dedupe needs -c CONFIG (YAML or JSON, Dolma deduper format)');
  const cfg = await loadDedupeConfig(path);
  const quiet = args.options.get('quiet') === true;
  if (args.options.get('dryrun') === true || cfg.dryrun) {
    process.stdout.write(JSON.stringify(cfg, null, 2) + '\n');
    return 0;
  }
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runDedupe(cfg, { signal, onProgress: printer.update, log: stderrLine });
    printer.done();
    if (!quiet) process.stdout.write(formatDedupeSummary(s));
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
