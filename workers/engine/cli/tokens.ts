// `assay tokens`: Dolma's tokenizer CLI (flags with Dolma's dotted names, or `-c tokens.yaml`), progress and a per-source summary.
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { parseConfigText } from '../../../shared/recipe/load.js';
import { tokensConfig, type TokensConfig } from '../../../shared/tokenize/schema.js';
import { AssayError } from '../errors.js';
import { RecipeError } from '../mix/config.js';
import { runTokens, summaryPath, type TokensOptions, type TokensSummary } from '../tokenize/runtime.js';
import { intOption, listOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter, formatBytes } from './progress-bar.js';
import { stderrLine } from './stderr.js';

export async function loadTokensConfig(path: string): Promise<TokensConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
  const r = parseConfigText(text, tokensConfig, { env: process.env, cpuCount: cpus().length });
  if (!r.ok) throw new RecipeError(path, r.issues);
  return r.config;
}

const flag = (args: ParsedArgs, name: string): boolean => args.options.get(name) === true;

/** Flags override the config file key by key, as Dolma's CLI merges them. */
export function tokensOptions(args: ParsedArgs, c: TokensConfig | null): TokensOptions {
  const documents = listOption(args, 'documents') ?? c?.documents;
  const destination = stringOption(args, 'destination') ?? c?.destination;
  const nameOrPath = stringOption(args, 'tokenizer.name_or_path') ?? c?.tokenizer.name_or_path;
  if (!documents?.length) throw new UsageError('tokens needs --documents GLOB… (or `documents` in the config)');
  if (destination === undefined) throw new UsageError('tokens needs --destination DIR (or `destination` in the config)');
  if (nameOrPath === undefined) throw new UsageError('tokens needs --tokenizer.name_or_path PATH (a tokenizer.json, or the built-in gpt2)');
  const dtype = stringOption(args, 'dtype') ?? c?.dtype;
  if (dtype !== undefined && dtype !== 'uint8' && dtype !== 'uint16' && dtype !== 'uint32') throw new UsageError(`--dtype must be uint16 or uint32 (uint8 for vocabularies of ≤ 256), got '${dtype}'`);
  const idName = stringOption(args, 'fields.id_field_name');
  return {
    documents,
    destination,
    tokenizer: {
      nameOrPath,
      bosTokenId: intOption(args, 'tokenizer.bos_token_id', 0) ?? c?.tokenizer.bos_token_id,
      eosTokenId: intOption(args, 'tokenizer.eos_token_id', 0) ?? c?.tokenizer.eos_token_id,
      padTokenId: intOption(args, 'tokenizer.pad_token_id', 0) ?? c?.tokenizer.pad_token_id,
      segmentBeforeTokenization: flag(args, 'tokenizer.segment_before_tokenization') || c?.tokenizer.segment_before_tokenization,
      encodeSpecialTokens: flag(args, 'tokenizer.encode_special_tokens') || c?.tokenizer.encode_special_tokens,
    },
    dtype,
    maxSize: intOption(args, 'max_size') ?? c?.max_size,
    batchSize: intOption(args, 'batch_size') ?? c?.batch_size,
    ringSize: intOption(args, 'ring_size') ?? c?.ring_size,
    sampleRingProp: flag(args, 'sample_ring_prop') || c?.sample_ring_prop,
    filesPerProcess: intOption(args, 'files_per_process') ?? c?.files_per_process ?? undefined,
    seed: intOption(args, 'seed', 0) ?? c?.seed,
    processes: c?.debug ? 1 : (intOption(args, 'processes') ?? c?.processes),
    fields: {
      textFieldName: stringOption(args, 'fields.text_field_name') ?? c?.fields.text_field_name,
      idFieldName: idName === undefined ? c?.fields.id_field_name : idName === 'null' ? null : idName,
      idFieldType: c?.fields.id_field_type,
    },
    skipBadLines: flag(args, 'skip-bad-lines'),
  };
}

const n = (x: number): string => x.toLocaleString('en-US');

export function formatTokensSummary(s: TokensSummary): string {
  const lines = [
    `tokenized ${n(s.docs)} docs (${formatBytes(s.bytes)}) from ${s.inputs} file(s) → ${n(s.tokens)} ${s.dtype} tokens in ${s.outputs.length} file pair(s) under ${s.destination} ` +
      `in ${s.elapsedSec.toFixed(1)} s with ${s.processes} process(es)`,
  ];
  if (s.skippedEmpty) lines.push(`  skipped ${n(s.skippedEmpty)} document(s) empty after stripping (as Dolma)`);
  if (s.badLines) lines.push(`  skipped ${n(s.badLines)} bad line(s)`);
  const sources = Object.entries(s.perSource);
  if (sources.length > 0) {
    lines.push('  tokens per source (raw = text only, without BOS/EOS):');
    const width = Math.max(...sources.map(([k]) => (k || '(no source)').length));
    for (const [k, c] of sources) lines.push(`    ${(k || '(no source)').padEnd(width)}  ${n(c.rawTokens).padStart(14)} raw  ${n(c.tokens).padStart(14)} written  ${n(c.docs).padStart(10)} docs`);
  }
  const big = s.outputs.filter((o) => o.oversized);
  if (big.length) lines.push(`  ${big.length} document(s) of ≥ max_size (${n(s.maxSize)}) tokens each went into a file of their own: ${big.map((o) => o.npy).join(', ')}`);
  lines.push(`  summary: ${summaryPath(s.destination)}`);
  return lines.join('\n') + '\n';
}

export async function tokensCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}' (boolean flags such as --tokenizer.segment_before_tokenization take no value)`);
  const configPath = stringOption(args, 'config');
  const config = configPath ? await loadTokensConfig(configPath) : null;
  const opts = tokensOptions(args, config);
  if (flag(args, 'dryrun') || config?.dryrun) {
    process.stdout.write(JSON.stringify(opts, null, 2) + '\n');
    return 0;
  }
  const quiet = flag(args, 'quiet');
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const s = await runTokens({ ...opts, signal, onProgress: printer.update, log: stderrLine });
    printer.done();
    if (!quiet) process.stdout.write(formatTokensSummary(s));
    return 0;
  } catch (e) {
    printer.done();
    throw e;
  }
}
