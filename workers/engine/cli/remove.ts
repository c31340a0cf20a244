// `assay remove OUTPUT --ids FILE --destination NEW`: a new version of a mix output (and its tokens) without those documents.
import { removeDocuments, readRequestFile, type RemovalRequest } from '../ledger/remove.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';
import { stderrLine } from './stderr.js';

export async function removeCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const output = args.positionals[0];
  const destination = stringOption(args, 'destination');
  if (output === undefined || args.positionals.length > 1 || destination === undefined) {
    throw new UsageError('usage: assay remove OUTPUT_DIR (--ids FILE | --urls FILE | --hashes FILE)… --destination NEW_DIR [--tokens TOKENS_DIR --tokens-destination NEW_TOKENS_DIR] [--allow-missing]');
  }
  const req: RemovalRequest = { files: [] };
  for (const [opt, key] of [['ids', 'ids'], ['urls', 'urls'], ['hashes', 'hashes']] as const) {
    const v = args.options.get(opt);
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new UsageError(`remove --${opt} needs a file with one value per line`);
    req[key] = await readRequestFile(v);
    req.files!.push(v);
  }
  if (req.files!.length === 0) throw new UsageError('remove needs --ids FILE, --urls FILE or --hashes FILE');
  const tokensFrom = stringOption(args, 'tokens');
  const tokensTo = stringOption(args, 'tokens-destination');
  if ((tokensFrom === undefined) !== (tokensTo === undefined)) throw new UsageError('--tokens OLD_DIR and --tokens-destination NEW_DIR go together');
  const r = await removeDocuments(output, destination, req, {
    allowMissing: args.options.get('allow-missing') === true,
    signal,
    ...(tokensFrom && tokensTo ? { tokens: { from: tokensFrom, destination: tokensTo } } : {}),
    log: stderrLine,
  });
  if (args.options.get('json') === true) process.stdout.write(JSON.stringify(r) + '\n');
  else if (args.options.get('quiet') !== true) {
    const docs = r.shards.reduce((n, s) => n + s.docs, 0);
    process.stdout.write(`removed ${r.removed} document(s): ${r.destination} holds ${docs} in ${r.shards.length} shard(s)${r.tokens ? `; tokens in ${r.tokens}` : ''}\n`);
    if (r.missing.length > 0) process.stdout.write(`not in ${output} (skipped, --allow-missing): ${r.missing.join(', ')}\n`);
  }
  return 0;
}
