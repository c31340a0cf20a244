// `assay warc`: WARC files → Dolma documents (flags or `-c warc.yaml`), with progress in pages/s and a summary per file.
import { readFile } from 'node:fs/promises';
import { AssayError } from '../errors.js';
import type { ProgressReport } from '../jobs/progress.js';
import { warcOptionsFromText, type WarcConfig } from '../warc/config.js';
import { runWarc, type WarcCounts, type WarcOptions, type WarcSummary } from '../warc/index.js';
import { intOption, listOption, redoExisting, stringOption, UsageError, type ParsedArgs } from './args.js';
import { parseTaggerOptions } from './tag.js';
import { createProgressPrinter, progressLine } from './progress-bar.js';
import { stderrLine } from './stderr.js';

const LABELS: [keyof WarcCounts, string][] = [
  ['nonResponse', 'not pages'], ['urlBlocked', 'URL-blocked'], ['httpStatus', 'non-2xx'], ['badHttp', 'bad HTTP'], ['nonHtml', 'non-HTML'],
  ['tooLarge', 'too large'], ['undecodable', 'undecodable'], ['extractFailed', 'extraction failed'], ['empty', 'empty after extraction'],
  ['tooShort', 'too short'], ['wrongLanguage', 'other language'], ['malformed', 'damaged'], ['truncated', 'truncated input'], ['unknownCharset', 'unknown charset (decoded anyway)'],
];

export function formatCounts(c: WarcCounts): string {
  const parts = LABELS.filter(([k]) => c[k] > 0).map(([k, label]) => `${c[k].toLocaleString('en-US')} ${label}`);
  return `${c.records.toLocaleString('en-US')} records read, ${c.kept.toLocaleString('en-US')} kept${parts.length ? `; ${parts.join(', ')}` : ''}`;
}

export function formatWarcSummary(s: WarcSummary): string {
  const lines = s.files.map((f) => `  ${f.input}${f.status === 'skipped' ? ' (already done: marker; --ignore-existing redoes it)' : ''}: ${formatCounts(f.counts)}\n`);
  const rate = s.elapsedSec > 0 ? ` (${(s.totals.records / s.elapsedSec).toFixed(0)} records/s)` : '';
  return `warc: ${s.files.length} file(s) with ${s.processes} process(es) in ${s.elapsedSec.toFixed(1)} s${rate}: ${formatCounts(s.totals)}\n${lines.join('')}`;
}

const pagesLine = (p: ProgressReport): string => `${progressLine(p)} · ${p.elapsedSec > 0 ? (p.docs / p.elapsedSec).toFixed(0) : '0'} pages/s`;

async function fromConfig(path: string): Promise<WarcConfig> {
  const text = await readFile(path, 'utf8').catch((e: Error) => {
    throw new AssayError('CONFIG', `cannot read config: ${e.message}`, { file: path });
  });
  return warcOptionsFromText(text, path);
}

function numberOption(args: ParsedArgs, name: string): number | undefined {
  const v = stringOption(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got '${v}'`);
  return n;
}

/** The run a command line asks for (flags over the config file); also what a Slurm task runs on its files. */
export async function warcOptions(args: ParsedArgs, signal?: AbortSignal): Promise<WarcOptions> {
  const configPath = stringOption(args, 'config');
  const file: WarcConfig = configPath ? await fromConfig(configPath) : {};
  const documents = listOption(args, 'documents') ?? file.documents;
  const destination = stringOption(args, 'destination') ?? file.destination;
  if (!documents?.length) throw new UsageError('warc needs --documents GLOB… (WARC files: .warc, .warc.gz)');
  if (!destination) throw new UsageError('warc needs --destination DIR (documents go to DIR/documents/)');
  const flagFilter = parseTaggerOptions((listOption(args, 'url-filter-option') ?? []).map((o) => `url_filter.${o}`)).url_filter;
  const urlFilter = args.options.get('no-url-filter') === true ? false : file.urlFilter === false ? false : { ...file.urlFilter, ...flagFilter };
  const opts: WarcOptions = {
    ...file,
    documents,
    destination,
    urlFilter,
    extractor: stringOption(args, 'extractor') ?? file.extractor,
    processes: intOption(args, 'processes') ?? file.processes,
    sourceName: stringOption(args, 'source_name') ?? file.sourceName,
    dump: stringOption(args, 'dump') ?? file.dump,
    languages: listOption(args, 'languages') ?? file.languages,
    languageId: args.options.get('language-id') === true || file.languageId,
    languageThreshold: numberOption(args, 'language_threshold') ?? file.languageThreshold,
    minTextLength: intOption(args, 'min_text_length', 0) ?? file.minTextLength,
    maxHtmlBytes: intOption(args, 'max_html_bytes') ?? file.maxHtmlBytes,
    ignoreExisting: redoExisting(args, file.ignoreExisting),
    signal,
    log: stderrLine,
  };
  return opts;
}

export async function warcCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const opts = await warcOptions(args, signal);
  if (args.options.get('dryrun') === true) {
    process.stdout.write(JSON.stringify({ ...opts, signal: undefined, log: undefined }, null, 2) + '\n');
    return 0;
  }
  const quiet = args.options.get('quiet') === true;
  const printer = createProgressPrinter(process.stderr, quiet, pagesLine);
  try {
    const s = await runWarc({ ...opts, onProgress: printer.update });
    printer.done();
    if (!quiet) process.stdout.write(formatWarcSummary(s));
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
