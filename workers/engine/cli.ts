// The `assay` command line: Dolma's verbs over the engine, with Dolma's `-c CONFIG` placement accepted anywhere.
import { isAssayError } from './errors.js';
import { helpTable, parseArgs, UsageError, type OptionSpec, type ParsedArgs } from './cli/args.js';

const OPTIONS: Record<string, OptionSpec> = {
  config: { alias: 'c', repeatable: true, description: 'config file (YAML or JSON, Dolma format); diff takes two: -c OLD -c NEW' },
  documents: { multiple: true, description: 'tag/tokens: documents globs (`*`, `?`, `**`); warc: WARC file globs (.warc, .warc.gz)' },
  taggers: { multiple: true, description: 'tag: tagger names (see `assay list`)' },
  experiment: { value: true, description: 'tag: experiment name (attributes/<experiment>/, key prefix)' },
  'tagger-option': { multiple: true, description: 'tag: TAGGER.KEY=VALUE option for a tagger (repeatable)' },
  'tagger-modules': { multiple: true, description: 'tag/list: JS/TS modules exporting custom taggers' },
  'skip-existing': { description: 'tag: also skip files whose outputs exist without an Assay marker' },
  'ignore-existing': { description: 'tag/warc/import/decon: redo files even when marked complete' },
  'no-manifest': { description: 'tag/decon: write no run manifest (a cluster run\'s array tasks pass it; the final step writes it)' },
  'keep-existing': { description: 'tag/warc/decon: never redo a file marked complete, even with --ignore-existing or ignore_existing in the config (a cluster run\'s final step passes it)' },
  seed: { value: true, description: 'tag: base seed for seeded taggers (random_number_v1); tokens: shuffle seed (3920); plan: assay.sample.seed written' },
  destination: { value: true, description: 'tokens: output folder for part-*.npy / part-*.csv.gz; warc: dataset root (documents go to DIR/documents/)' },
  extractor: { value: true, description: 'warc: main-text extractor (density, readability, wet; default density)' },
  source_name: { value: true, description: 'warc: each document\'s source (default warc)' },
  dump: { value: true, description: 'warc: metadata.dump (default: the CC-MAIN-YYYY-WW in the file\'s path)' },
  'no-url-filter': { description: 'warc: keep every URL (default: url_filter with DataTrove\'s integrated lists drops blocked URLs before parsing)' },
  'url-filter-option': { multiple: true, description: 'warc: KEY=VALUE url_filter option, e.g. domains_files=blocklist/domains (repeatable)' },
  languages: { multiple: true, description: 'warc: keep only pages identified (fastText lid.176) as these languages' },
  'language-id': { description: 'warc: label each page\'s language and score without dropping any' },
  language_threshold: { value: true, description: 'warc: with --languages, keep when the score is above this (default 0.65)' },
  min_text_length: { value: true, description: 'warc: drop pages whose extracted text has fewer characters (default 0)' },
  max_html_bytes: { value: true, description: 'warc: skip (counted, logged) pages larger than this (default 10485760)' },
  'tokenizer.name_or_path': { value: true, description: 'tokens: a tokenizer.json (or its folder), or the built-in gpt2' },
  'tokenizer.bos_token_id': { value: true, description: 'tokens: BOS id prepended to each document' },
  'tokenizer.eos_token_id': { value: true, description: 'tokens, index --tokenizer: EOS id appended to each document (index: default the tokenizer\'s end-of-text token)' },
  'tokenizer.pad_token_id': { value: true, description: 'tokens: pad id (recorded, not written)' },
  'tokenizer.segment_before_tokenization': { description: 'tokens: encode paragraph by paragraph (same ids)' },
  'tokenizer.encode_special_tokens': { description: 'tokens: tokenize special-token strings in the text as text' },
  dtype: { value: true, description: 'tokens: uint16 | uint32 (must fit the vocabulary exactly)' },
  max_size: { value: true, description: 'tokens: tokens per output file (default 1073741824)' },
  batch_size: { value: true, description: 'tokens: documents shuffled together (default 10000)' },
  ring_size: { value: true, description: 'tokens: input files read round-robin per process (default 8)' },
  sample_ring_prop: { description: 'tokens: take the next document from the files in the ring in proportion to their sizes, not in turn (Dolma\'s sample_ring_prop)' },
  files_per_process: { value: true, description: 'tokens: input files per output group (Dolma\'s files_per_process)' },
  'fields.text_field_name': { value: true, description: 'tokens: text field, dotted for nested (default text)' },
  'fields.id_field_name': { value: true, description: 'tokens: id field (default id; null = sha256(path)-line)' },
  processes: { value: true, description: 'parallel processes (overrides the config)' },
  'compression-level': { value: true, description: 'tag: compression level of the attribute files (gzip 0–9, default 4; zstd −7–22, default 3)' },
  'skip-bad-lines': { description: 'skip malformed lines (counted, logged with file:line)' },
  dryrun: { description: 'print the resolved config and exit' },
  json: { description: 'list/preview/explain/lint/manifest/diff/ledger/plan/decon-report: machine-readable output' },
  name: { value: true, description: 'decon/decon-report: the decon name (keys <NAME>__decon__*, folder attributes/<NAME>/)' },
  eval: { multiple: true, description: 'decon: eval set files (.jsonl[.gz|.zst], .json, .csv, .parquet); each is a set named after its file' },
  'eval-fields': { value: true, description: 'decon: FIELD[,FIELD…] joined as the item text (strings, or arrays of strings like choices)' },
  'eval-id-field': { value: true, description: 'decon: the item id field (default: the 0-based row number)' },
  ngram: { value: true, description: 'decon: n-gram length in words (default 13)' },
  'decon-index': { value: true, description: 'decon: where the eval n-gram index is saved (default <NAME>.decon.idx, or beside the config)' },
  rebuild: { description: 'decon: rebuild a saved index that does not match the eval sets or n (it is refused otherwise)' },
  'build-only': { description: 'decon: build (or check) the index and stop' },
  index: { value: true, description: 'preview/explain/lint/ledger/plan: dataset root whose index (.assay/index.sqlite) to use' },
  'no-search': { description: 'index: skip the search table over the texts (.assay/search/)' },
  tokenizer: { value: true, description: 'index: count each document\'s tokens exactly (as `assay tokens` writes them) with a tokenizer.json, its folder, or gpt2' },
  workspace: { value: true, description: 'init: the dataset folder the starter points at; locate: the folder whose runs to search; ledger OUTPUT_DIR: where to look for a tokens run of it (default: the current directory)' },
  force: { description: 'init: replace an existing file' },
  id: { value: true, description: 'explain/locate: the document id' },
  ids: { optionalValue: true, description: 'preview: also list the ids of the kept documents; locate: print only the matching ids; remove: FILE of ids, one per line' },
  urls: { value: true, description: 'remove: FILE of urls (metadata.url), one per line' },
  hashes: { value: true, description: 'remove: FILE of text sha256 hashes, one per line' },
  url: { value: true, description: 'locate: a metadata.url' },
  'text-hash': { value: true, description: 'locate: sha256 (hex) of a document text' },
  'text-file': { value: true, description: 'locate: a file whose bytes are the document text' },
  contains: { value: true, description: 'locate: a substring of the text (scans the inputs, bounded by --limit)' },
  limit: { value: true, description: 'locate: most matches shown (default 1000)' },
  'no-ledger': { description: 'mix: skip the removal ledger (<output>/.assay/ledger.sqlite)' },
  'allow-missing': { description: 'remove: skip requested documents that are not in the output instead of refusing' },
  tokens: { value: true, description: 'remove: the tokens run of the output, rerun into --tokens-destination; ledger: the tokens run whose exact counts are the seen tokens' },
  'tokens-destination': { value: true, description: 'remove: where the new tokens go' },
  epochs: { value: true, description: 'ledger: training epochs over what the mix writes, seen = sampled × repeat × epochs (default 1)' },
  csv: { description: 'ledger: one CSV row per source and stage' },
  budget: { value: true, description: 'plan: seen tokens to train on (2e9 or 2000000000)' },
  target: { value: true, description: 'plan: target share per source, SOURCE=SHARE,… (web=0.6,books=0.2,code=0.2)' },
  'max-repetitions': { value: true, description: 'plan: most copies of a document (default 1: never upsample)' },
  'max-source-fraction': { value: true, description: 'plan: largest share one source may take (default 1)' },
  write: { description: 'plan: write the planned sampling into the recipe file' },
  samples: { value: true, description: 'diff -c OLD -c NEW: sample ids listed per change (default 20)' },
  sample: { value: true, description: 'preview: estimate from a uniform sample of about N documents of the index (figures with confidence intervals)' },
  'sample-seed': { value: true, description: 'preview --sample: which sample (default 0)' },
  level: { value: true, description: 'preview --sample: confidence level of the intervals (default 0.95)' },
  verbose: { alias: 'v', description: 'list: show every output attribute' },
  dest: { value: true, description: 'import: dataset root (documents go to DEST/documents/); export: folder for the .parquet shards' },
  'text-field': { value: true, description: 'import: the Parquet column holding the text (default text)' },
  'id-field': { value: true, description: 'import: the Parquet column holding the id (default id; without one, <file>-<row>)' },
  source: { value: true, description: "import: the documents' source (default: the Parquet file's folder name)" },
  format: { value: true, description: 'export: output format (parquet)' },
  out: { value: true, description: 'demo: the new folder to build the demo workspace in' },
  docs: { value: true, description: 'demo: number of documents (default 1000)' },
  executor: { value: true, description: 'warc/import/tag/dedupe/minhash/mix/tokens/index/decon: local (default) or slurm (an array job; see "Running on a cluster")' },
  tasks: { value: true, description: 'slurm: array tasks (default: one per input file; dedupe: 2 hash partitions)' },
  partition: { value: true, description: 'slurm: partition (sbatch --partition)' },
  'cpus-per-task': { value: true, description: 'slurm: CPUs per task (default 1)' },
  mem: { value: true, description: 'slurm: memory per task (sbatch --mem, e.g. 4G)' },
  time: { value: true, description: 'slurm: time limit per task (sbatch --time)' },
  qos: { value: true, description: 'slurm: QoS' },
  account: { value: true, description: 'slurm: account' },
  'max-concurrent': { value: true, description: 'slurm: most tasks running at once (--array=…%K)' },
  'sbatch-arg': { multiple: true, description: 'slurm: extra #SBATCH line(s), e.g. --sbatch-arg=--constraint=skylake' },
  'env-command': { value: true, description: 'slurm: shell line each task runs first (module load …, source venv)' },
  'logging-dir': { value: true, description: 'slurm: completions, logs, scripts (default .assay-slurm/VERB)' },
  wait: { description: 'slurm: wait for the run to end and report it (exit 1 when a task failed)' },
  quiet: { alias: 'q', description: 'no progress bar or summary' },
  help: { alias: 'h', description: 'show this help' },
  version: { description: 'print the version' },
};

// Each verb's module (and the taggers, WebAssembly, jq and SQLite behind it) is imported only when that verb runs:
// start-up parses the option table and one verb, not the whole engine.
const COMMANDS: Record<string, { summary: string; run: (args: ParsedArgs, signal: AbortSignal) => Promise<number> }> = {
  warc: { summary: 'WARC files → Dolma documents: URL filter, HTML main text, language id, provenance metadata', run: async (a, s) => (await import('./cli/warc.js')).warcCommand(a, s) },
  tag: { summary: 'run taggers over documents, writing attributes/<experiment>/ beside them', run: async (a, s) => (await import('./cli/tag.js')).tagCommand(a, s) },
  dedupe: { summary: "Dolma's bloom-filter dedupe (documents / paragraphs modes) as attributes", run: async (a, s) => (await import('./cli/dedupe.js')).dedupeCommand(a, s) },
  minhash: { summary: "FineWeb's MinHash near-dedup: clusters, duplicate_of and a drop flag as attributes", run: async (a, s) => (await import('./cli/minhash.js')).minhashCommand(a, s) },
  mix: { summary: 'filter, edit and shard documents with a Dolma mixer recipe', run: async (a, s) => (await import('./cli/mix.js')).mixCommand(a, s) },
  tokens: { summary: 'tokenize documents into OLMo-ready memmaps (part-*.npy + part-*.csv.gz)', run: async (a, s) => (await import('./cli/tokens.js')).tokensCommand(a, s) },
  index: { summary: 'build or refresh DATASET_ROOT/.assay/index.sqlite (the attribute index previews read)', run: async (a, s) => (await import('./cli/index.js')).indexCommand(a, s) },
  preview: { summary: 'what a recipe keeps and drops, per rule, from the index (exactly what mix writes)', run: async (a) => (await import('./cli/preview.js')).previewCommand(a) },
  explain: { summary: "one document's fate under a recipe: each rule's verdict, the values read, the output text", run: async (a) => (await import('./cli/explain.js')).explainCommand(a) },
  lint: { summary: 'check a recipe against the index: missing keys, rules that drop nothing/everything, shadowed rules', run: async (a) => (await import('./cli/lint.js')).lintCommand(a) },
  list: { summary: 'list the available taggers and what they emit', run: async (a) => (await import('./cli/list.js')).listCommand(a) },
  init: { summary: 'write a starter config (FineWeb, Dolma C4, from the attribute catalogue, or per job kind) into the current directory', run: async (a) => (await import('./cli/init.js')).initCommand(a) },
  diff: { summary: 'what changed between two run manifests (A B), or which documents change fate between two recipes (-c OLD -c NEW --index ROOT)', run: async (a, s) => (await import('./cli/diff.js')).diffCommand(a, s) },
  manifest: { summary: "a run's manifest and the chain of runs behind it (inputs' hashes, config, tool, outputs), as a tree", run: async (a) => (await import('./cli/manifest.js')).manifestCommand(a) },
  ledger: { summary: 'tokens per source raw → filtered → sampled → seen: predicted from the index (-c), or of a finished mix output', run: async (a, s) => (await import('./cli/ledger.js')).ledgerCommand(a, s) },
  plan: { summary: "each source's sample fraction and repeat for a token budget and target shares (--write puts them in the recipe)", run: async (a) => (await import('./cli/plan.js')).planCommand(a) },
  locate: { summary: 'where documents went in every run under a workspace: input line, fate and rule, output shard line, token range', run: async (a, s) => (await import('./cli/locate.js')).locateCommand(a, s) },
  remove: { summary: 'a new version of a mix output (and its tokens) without the given documents; the old one is untouched', run: async (a, s) => (await import('./cli/remove.js')).removeCommand(a, s) },
  decon: { summary: 'exact n-gram overlap of documents with eval sets (JSONL/JSON/CSV/Parquet), as attributes/<NAME>/ spans, counts and hit items', run: async (a, s) => (a.positionals[0] === 'report' ? (await import('./cli/decon-report.js')).deconReportCommand({ ...a, positionals: a.positionals.slice(1) }, s) : (await import('./cli/decon.js')).deconCommand(a, s)) },
  'decon-report': { summary: 'contamination report of decon attributes (= assay decon report): per eval set the share of items hit, documents and tokens per source, top items (saved to attributes/<NAME>/.assay/decon-report.json)', run: async (a, s) => (await import('./cli/decon-report.js')).deconReportCommand(a, s) },
  import: { summary: 'Parquet files (FineWeb, any Hugging Face text dataset) → Dolma documents under DEST/documents/', run: async (a, s) => (await import('./cli/parquet.js')).importCommand(a, s) },
  export: { summary: 'a mix output or documents folder → Parquet shards with the metadata as columns', run: async (a, s) => (await import('./cli/parquet.js')).exportCommand(a, s) },
  jobs: { summary: 'Slurm runs: status LOGGING_DIR (tasks done/running/pending/failed, failed logs) or cancel LOGGING_DIR', run: async (a, s) => (await import('./cli/jobs.js')).jobsCommand(a, s) },
  demo: { summary: 'build a demo workspace from real English text with planted duplicates, PII and junk', run: async (a, s) => (await import('./demo/cli.js')).demoCommand(a, s) },
};

const SLURM_VERBS = new Set(['warc', 'import', 'tag', 'dedupe', 'minhash', 'mix', 'tokens', 'index', 'decon']);

export const HELP = `assay — Dolma-compatible corpus curation

Usage:
  assay warc --documents GLOB… --destination DIR [--extractor NAME] [--processes N] [--languages LANG…] [--min_text_length N]
             [--no-url-filter | --url-filter-option KEY=VALUE…]   |   assay warc -c warc.yaml
  assay tag --documents GLOB… --taggers NAME… [--experiment NAME] [--processes N] [--skip-existing]
  assay dedupe -c dedupe.yaml [--quiet]
  assay minhash -c minhash.yaml [--quiet]
  assay mix -c recipe.yaml [--processes N] [--skip-bad-lines] [--no-ledger] [--quiet]
  assay tokens --documents GLOB… --destination DIR --tokenizer.name_or_path PATH|gpt2 --tokenizer.eos_token_id ID
               [--dtype uint16|uint32] [--max_size N] [--processes N] [--seed N]   |   assay tokens -c tokens.yaml
  assay index DATASET_ROOT [--tokenizer PATH|gpt2 [--tokenizer.eos_token_id ID]] [--processes N] [--no-search] [--quiet]
  assay preview -c recipe.yaml --index DATASET_ROOT [--json] [--ids]
  assay explain -c recipe.yaml --index DATASET_ROOT --id ID [--json]
  assay lint -c recipe.yaml --index DATASET_ROOT [--json]
  assay list [--verbose] [--json]
  assay init [NAME] [--workspace DIR] [--force]   (starters: fineweb, fineweb-tunable, dolma-c4, starter, tag, dedupe, minhash, tokens, decon)
  assay ledger -c recipe.yaml --index DATASET_ROOT [--epochs N] [--json | --csv]   |   assay ledger OUTPUT_DIR [--epochs N] [--tokens DIR] [--json | --csv]
  assay plan -c recipe.yaml --index DATASET_ROOT --budget TOKENS --target SOURCE=SHARE,… [--max-repetitions N]
             [--max-source-fraction F] [--seed N] [--write] [--json]
  assay manifest PATH [--json]   (PATH: an output folder, a manifest file or a dataset root)
  assay diff A B [--json]   (two run manifests; exit 1 when they differ)   |   assay diff -c OLD -c NEW --index DATASET_ROOT [--json] [--samples N]
  assay locate (--id ID | --url URL | --text-hash SHA | --text-file FILE | --contains TEXT) [--workspace DIR] [--limit N] [--json | --ids]
  assay remove OUTPUT_DIR --ids FILE [--urls FILE] [--hashes FILE] --destination NEW_DIR
               [--tokens TOKENS_DIR --tokens-destination NEW_TOKENS_DIR] [--allow-missing]
  assay decon --documents GLOB… --eval PATH… --eval-fields FIELD[,FIELD…] [--eval-id-field ID] --name NAME [--ngram N]
              [--processes N] [--decon-index PATH] [--rebuild] [--build-only] [--ignore-existing]   |   assay decon -c decon.yaml [--documents GLOB…]
  assay decon report --documents GLOB… --name NAME [--index DATASET_ROOT] [--json]   (also: assay decon-report …)
  assay import PARQUET… --dest DIR [--text-field F] [--id-field F] [--source NAME] [--processes N] [--ignore-existing]
  assay export OUTPUT_DIR --format parquet --dest DIR   |   assay export --format parquet --documents GLOB… --dest DIR
  assay warc|import|tag|dedupe|minhash|mix|tokens|index|decon … --executor slurm [--tasks N] [--partition P] [--cpus-per-task C] [--mem M] [--time T]
             [--logging-dir DIR] [--max-concurrent K] [--sbatch-arg LINE…] [--env-command LINE] [--wait]
  assay jobs status LOGGING_DIR [--json]   |   assay jobs cancel LOGGING_DIR
  assay demo --out DIR [--docs N] [--seed N]
  assay serve --workspace DIR [--port N] [--no-open]   (the app in a browser; assay serve --help)
  assay -c config.yaml warc|tag|dedupe|mix|tokens (Dolma's argument order works too)

Commands:
${Object.entries(COMMANDS)
  .map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`)
  .join('\n')}

Options:
${helpTable(OPTIONS)}

Relative paths in a recipe resolve against the current directory, as in Dolma.
Exit status: 0 success, 1 failure (message names file:line or config field), 2 usage or config error, 130 cancelled.
`;

export async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  let ran = false;
  try {
    const args = parseArgs(argv, OPTIONS);
    if (args.options.get('version') === true) {
      process.stdout.write('assay 0.1.0\n');
      return 0;
    }
    if (args.options.get('help') === true || args.command === undefined || args.command === 'help') {
      process.stdout.write(HELP);
      return args.command === undefined && args.options.size === 0 ? 2 : 0;
    }
    const cmd = COMMANDS[args.command];
    if (!cmd) throw new UsageError(`unknown command '${args.command}' (commands: ${Object.keys(COMMANDS).join(', ')})`);
    ran = true;
    // The verbs with a cluster adapter (executor/adapters.ts) can go to Slurm (`--executor slurm` or the config's assay.executor block).
    if (SLURM_VERBS.has(args.command)) {
      const { resolveExecutor } = await import('./executor/settings.js');
      const executor = await resolveExecutor(args);
      if (executor.type === 'slurm' && args.command === 'decon' && args.positionals[0] === 'report') throw new UsageError('decon report runs locally only: drop --executor');
      if (executor.type === 'slurm') return await (await import('./executor/launch.js')).launchOnSlurm(args, executor, { wait: args.options.get('wait') === true, signal: controller.signal });
    }
    return await cmd.run(args, controller.signal);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`assay: ${e.message}\nRun 'assay --help' for usage.\n`);
      return 2;
    }
    if (isAssayError(e)) {
      if (e.code === 'CANCELLED') {
        process.stderr.write('assay: cancelled; no partial output was kept\n');
        return 130;
      }
      process.stderr.write(`assay: error: ${e.message}\n`);
      return e.code === 'CONFIG' ? 2 : 1;
    }
    process.stderr.write(`assay: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    // Only a verb can have started the jq worker; --help and usage errors skip loading the jq module. A verb that used
    // jq has it loaded (import() is then a cache hit); one that did not has nothing to dispose if its chunk is gone
    // (a rebuild of dist/ during a long run removes old chunks).
    if (ran) await import('./mix/filters/jq/index.js').then((jq) => jq.disposeJq(), () => undefined);
  }
}
