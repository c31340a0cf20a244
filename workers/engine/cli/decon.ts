// `assay decon`: exact n-gram overlap with eval sets as attributes (`-c decon.yaml` or flags), with progress and a summary.
import { readFile } from 'node:fs/promises';
import { deconOptionsFromText, setNameFor } from '../decon/config.js';
import { runDecon, type DeconOptions, type DeconSummary } from '../decon/run.js';
import { AssayError } from '../errors.js';
import { intOption, listOption, redoExisting, stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter, formatBytes } from './progress-bar.js';
import { stderrLine } from './stderr.js';

async function fromConfig(path: string): Promise<Omit<DeconOptions, 'cwd'>> {
  const text = await readFile(path, 'utf8').catch((e: Error) => {
    throw new AssayError('CONFIG', `cannot read config: ${e.message}`, { file: path });
  });
  return deconOptionsFromText(text, path);
}

/** The flag form: every --eval file is a set named after the file, read with the same fields and id field. */
function fromFlags(args: ParsedArgs): Omit<DeconOptions, 'cwd'> {
  const name = stringOption(args, 'name');
  const documents = listOption(args, 'documents');
  const evals = listOption(args, 'eval');
  const fields = stringOption(args, 'eval-fields')?.split(',').map((f) => f.trim()).filter(Boolean);
  if (!name) throw new UsageError('decon needs --name NAME (attributes/<NAME>/, keys <NAME>__decon__*)');
  if (!documents?.length) throw new UsageError('decon needs --documents GLOB…');
  if (!evals?.length) throw new UsageError('decon needs --eval PATH… (JSONL, JSON, CSV or Parquet eval sets)');
  if (!fields?.length) throw new UsageError('decon needs --eval-fields FIELD[,FIELD…] (the item text: e.g. question,choices)');
  const idField = stringOption(args, 'eval-id-field');
  return {
    name,
    documents,
    sets: evals.map((path) => ({ name: setNameFor(path), path, fields, idField })),
    indexPath: `${name}.decon.idx`,
  };
}

export function formatDeconSummary(s: DeconSummary): string {
  const ix = s.index;
  const sets = ix.sets.map((x) => `${x.name}: ${x.items} item(s)${x.shortItems ? `, ${x.shortItems} shorter than n (not indexed)` : ''}`).join('; ');
  let out = `index ${ix.path} (${ix.built ? `built in ${ix.buildSec.toFixed(1)} s` : 'reused: it matches the eval sets and n'}): ${ix.ngrams.toLocaleString('en-US')} distinct n-grams; ${sets}\n`;
  const t = s.tag;
  if (t) {
    const tagged = t.files.filter((f) => f.status === 'tagged');
    const skipped = t.files.length - tagged.length;
    out += `tagged ${tagged.length} file(s), ${t.docs.toLocaleString('en-US')} docs, ${formatBytes(t.bytes)} in ${t.elapsedSec.toFixed(1)} s with ${t.processes} process(es)`;
    out += `${skipped ? `; skipped ${skipped} already tagged (markers; --ignore-existing re-tags)` : ''}\n`;
    out += tagged.flatMap((f) => f.outputs).slice(0, 10).map((o) => `  ${o}\n`).join('');
  }
  return out;
}

/** The options of `assay decon` from its config (-c) or flags; flags win, `--documents` over the config's too. */
export async function deconOptions(args: ParsedArgs): Promise<Omit<DeconOptions, 'cwd'>> {
  const config = stringOption(args, 'config');
  const base = config ? await fromConfig(config) : fromFlags(args);
  return {
    ...base,
    documents: listOption(args, 'documents') ?? base.documents,
    ngram: intOption(args, 'ngram') ?? base.ngram,
    processes: intOption(args, 'processes') ?? base.processes,
    indexPath: stringOption(args, 'decon-index') ?? base.indexPath,
    rebuild: args.options.get('rebuild') === true || base.rebuild,
    buildOnly: args.options.get('build-only') === true,
    ignoreExisting: redoExisting(args, base.ignoreExisting),
    manifest: args.options.get('no-manifest') !== true,
  };
}

export async function deconCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const quiet = args.options.get('quiet') === true;
  const opts: DeconOptions = { ...(await deconOptions(args)), signal, log: stderrLine };
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runDecon({ ...opts, onProgress: printer.update });
    printer.done();
    if (!quiet) process.stdout.write(formatDeconSummary(s));
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
