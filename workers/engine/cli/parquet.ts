// `assay import` (Parquet → Dolma documents) and `assay export --format parquet` (documents → Parquet shards), with progress and a summary.
import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { documentsIn, runExport, runImport, type ImportOptions } from '../parquet/index.js';
import { intOption, listOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter } from './progress-bar.js';
import { stderrLine } from './stderr.js';

const shown = (p: string): string => relative(process.cwd(), p) || '.';

/** The import a command line asks for; also what each Slurm task runs on its files. */
export function importOptions(args: ParsedArgs): ImportOptions {
  const dest = stringOption(args, 'dest');
  if (args.positionals.length === 0) throw new UsageError('import needs PARQUET… (files or globs)');
  if (dest === undefined) throw new UsageError('import needs --dest DIR (documents go to DIR/documents/)');
  return {
    inputs: args.positionals,
    dest,
    textField: stringOption(args, 'text-field'),
    idField: stringOption(args, 'id-field'),
    source: stringOption(args, 'source'),
    processes: intOption(args, 'processes'),
    ignoreExisting: args.options.get('ignore-existing') === true,
  };
}

export async function importCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const opts = importOptions(args);
  const quiet = args.options.get('quiet') === true;
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runImport({ ...opts, signal, onProgress: printer.update, log: stderrLine });
    printer.done();
    if (!quiet) {
      process.stdout.write(`imported ${s.files.length} file(s), ${s.docs.toLocaleString('en-US')} documents in ${s.elapsedSec.toFixed(1)} s with ${s.processes} process(es)\n`);
      for (const f of s.files) {
        const notes = [f.skipped ? 'already done (marker; --ignore-existing redoes it)' : '', f.noText ? `${f.noText} row(s) without text skipped` : '', f.generatedIds ? `${f.generatedIds} id(s) made from the row number` : ''].filter(Boolean);
        process.stdout.write(`  ${shown(f.input)} → ${shown(f.output)}: ${f.rows} rows, ${f.docs} documents${notes.length ? `; ${notes.join('; ')}` : ''}\n`);
      }
    }
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}

export async function exportCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const format = stringOption(args, 'format') ?? 'parquet';
  if (format !== 'parquet') throw new UsageError(`export --format: only 'parquet' is supported, got '${format}'`);
  const dest = stringOption(args, 'dest');
  if (dest === undefined) throw new UsageError('export needs --dest DIR (one .parquet per documents file)');
  const documents = listOption(args, 'documents') ?? [];
  for (const dir of args.positionals) {
    if (!(await stat(dir).catch(() => null))?.isDirectory()) throw new UsageError(`export: '${dir}' is not a folder (give files with --documents GLOB…)`);
    const found = await documentsIn(dir, process.cwd(), stderrLine);
    if (found.length === 0) throw new UsageError(`export: no documents files (.jsonl, .json, with .gz or .zst) under '${dir}'`);
    documents.push(...found);
  }
  if (documents.length === 0) throw new UsageError('export needs OUTPUT_DIR (a mix output or documents folder) or --documents GLOB…');
  const quiet = args.options.get('quiet') === true;
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runExport({ documents, dest, signal, onProgress: printer.update, log: stderrLine });
    printer.done();
    if (!quiet) {
      process.stdout.write(`exported ${s.rows.toLocaleString('en-US')} rows to ${s.files.length} Parquet file(s) in ${s.elapsedSec.toFixed(1)} s; columns: ${s.columns.map((c) => `${c.name} (${c.kind})`).join(', ')}\n`);
      for (const f of s.files) process.stdout.write(`  ${shown(f.input)} → ${shown(f.output)}: ${f.rows} rows\n`);
    }
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
