// `assay tag`: Dolma's tagger CLI (flags or `-c tag.yaml`), with progress, resume markers and a summary.
import { readFile } from 'node:fs/promises';
import { AssayError } from '../errors.js';
import { tagSettingsFromText, type TagFileSettings } from '../tag/config-file.js';
import { runTag, type TaggerRequest, type TagOptions } from '../tag/runtime.js';
import { intOption, listOption, redoExisting, stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter, formatBytes } from './progress-bar.js';
import { stderrLine } from './stderr.js';

/** `--tagger-option url_blocklist.path=lists/bad.txt` → { url_blocklist: { path: 'lists/bad.txt' } } (values parsed as JSON when they can be). */
export function parseTaggerOptions(items: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const item of items) {
    const m = /^([^.=]+)\.([^=]+)=(.*)$/s.exec(item);
    if (!m) throw new UsageError(`--tagger-option expects TAGGER.KEY=VALUE, got '${item}'`);
    const [, tagger, key, raw] = m as unknown as [string, string, string, string];
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a plain string */
    }
    (out[tagger] ??= {})[key] = value;
  }
  return out;
}

async function fromConfigFile(path: string): Promise<TagFileSettings> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
  return tagSettingsFromText(text, path);
}

export async function tagCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const configPath = stringOption(args, 'config');
  const file: TagFileSettings = configPath ? await fromConfigFile(configPath) : { options: {} };
  const documents = listOption(args, 'documents') ?? file.documents;
  const names = listOption(args, 'taggers') ?? file.taggers;
  if (!documents?.length) throw new UsageError('tag needs --documents GLOB…');
  if (!names?.length && !file.requests?.length) throw new UsageError('tag needs --taggers NAME… (see `assay list`)');
  const options = { ...file.options, ...parseTaggerOptions(listOption(args, 'tagger-option') ?? []) };
  const taggers: TaggerRequest[] = names?.length
    ? names.map((name) => ({ name, options: options[name] }))
    : (file.requests ?? []).map((t) => ({ ...t, options: { ...t.options, ...options[t.name] } }));
  const quiet = args.options.get('quiet') === true;
  const opts: TagOptions = {
    documents,
    taggers,
    experiment: stringOption(args, 'experiment') ?? file.experiment,
    processes: intOption(args, 'processes') ?? file.processes,
    skipExisting: args.options.get('skip-existing') === true || file.skipExisting,
    ignoreExisting: redoExisting(args, file.ignoreExisting),
    skipBadLines: args.options.get('skip-bad-lines') === true,
    compressionLevel: intOption(args, 'compression-level', -7) ?? file.compressionLevel,
    taggerModules: [...(file.taggerModules ?? []), ...(listOption(args, 'tagger-modules') ?? [])],
    seed: intOption(args, 'seed', 0) ?? file.seed,
    manifest: args.options.get('no-manifest') !== true,
    signal,
    log: stderrLine,
  };
  if (args.options.get('dryrun') === true || file.dryrun) {
    process.stdout.write(JSON.stringify({ ...opts, signal: undefined, log: undefined }, null, 2) + '\n');
    return 0;
  }
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runTag({ ...opts, onProgress: printer.update });
    printer.done();
    if (!quiet) {
      const tagged = s.files.filter((f) => f.status === 'tagged');
      const skipped = s.files.length - tagged.length;
      process.stdout.write(
        `tagged ${tagged.length} file(s), ${s.docs.toLocaleString('en-US')} docs, ${formatBytes(s.bytes)} in ${s.elapsedSec.toFixed(1)} s with ${s.processes} process(es)` +
          `${skipped ? `; skipped ${skipped} already tagged (markers; --ignore-existing re-tags)` : ''}` +
          `${s.badLines ? `; ${s.badLines} bad line(s) written as empty rows` : ''}\n` +
          tagged.flatMap((f) => f.outputs).slice(0, 10).map((o) => `  ${o}\n`).join(''),
      );
    }
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
