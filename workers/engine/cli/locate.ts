// `assay locate`: where a document went in every run recorded under a workspace — the answer to a takedown or PII request.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import type { LocatedDocument, LocateQuery } from '../../../shared/contract/ledger.js';
import { AssayError } from '../errors.js';
import { locate, textHashOf } from '../ledger/locate.js';
import { intOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import { ProgressTracker } from '../jobs/progress.js';
import { createProgressPrinter } from './progress-bar.js';

const KEYS = ['id', 'url', 'text-hash', 'text-file', 'contains'] as const;

async function queryOf(args: ParsedArgs): Promise<LocateQuery> {
  const given = KEYS.filter((k) => args.options.get(k) !== undefined);
  if (given.length !== 1) throw new UsageError(`locate takes exactly one of ${KEYS.map((k) => `--${k}`).join(', ')}`);
  const key = given[0]!;
  const v = stringOption(args, key)!;
  if (key === 'id') return { id: v };
  if (key === 'url') return { url: v };
  if (key === 'text-hash') return { textHash: v };
  if (key === 'contains') return { contains: v };
  const bytes = await readFile(v).catch((e: NodeJS.ErrnoException) => {
    throw new AssayError('IO', `cannot read the text file (${e.code ?? e.message})`, { file: v });
  });
  return { textHash: textHashOf(bytes) };
}

export function formatLocated(m: LocatedDocument, cwd: string): string {
  const rel = (p: string): string => (p.startsWith(cwd) ? relative(cwd, p) || '.' : p);
  const lines = [`${m.id}  (source ${m.source || '-'}${m.url ? `, ${m.url}` : ''}; text sha256 ${m.sha256.slice(0, 16)}…)`];
  lines.push(`  run     ${rel(m.output)}  stream ${m.stream}`);
  lines.push(`  input   ${rel(m.input.file)}:${m.input.line}`);
  lines.push(`  fate    ${m.fate.message}${m.replacedChars > 0 ? `; ${m.replacedChars} characters replaced` : ''}`);
  if (m.shard) lines.push(`  output  ${rel(m.shard.file)}:${m.shard.line}`);
  for (const t of m.tokens) lines.push(`  tokens  ${rel(t.npy)} [${t.start}, ${t.end})`);
  return lines.join('\n');
}

export async function locateCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const query = await queryOf(args);
  const root = stringOption(args, 'workspace') ?? args.positionals[0] ?? process.cwd();
  if (typeof args.options.get('ids') === 'string') throw new UsageError('locate --ids takes no value: it prints only the matching ids');
  const quiet = args.options.get('quiet') === true || args.options.get('json') === true;
  const printer = createProgressPrinter(process.stderr, quiet || !('contains' in query));
  let tracker: ProgressTracker | null = null;
  const r = await locate(root, query, {
    signal,
    limit: intOption(args, 'limit'),
    onProgress: (p) => {
      tracker ??= new ProgressTracker('locate', p.total, 0, printer.update);
      tracker.add({ compressedBytes: p.done - tracker.state.done });
    },
  });
  printer.done();
  if (args.options.get('json') === true) {
    process.stdout.write(JSON.stringify(r) + '\n');
    return r.matches.length > 0 ? 0 : 1;
  }
  if (args.options.get('ids') === true) {
    // For scripts and `assay remove --ids FILE`: each matching id once, in the order found.
    for (const id of new Set(r.matches.map((m) => m.id))) process.stdout.write(`${id}\n`);
    if (r.ledgers.length === 0) process.stderr.write(`assay: no mix ledgers under ${root}\n`);
    return r.matches.length > 0 ? 0 : 1;
  }
  if (r.ledgers.length === 0) {
    process.stderr.write(`assay: no mix ledgers under ${root} (assay mix writes <output>/.assay/ledger.sqlite unless --no-ledger)\n`);
    return 1;
  }
  const cwd = process.cwd();
  for (const m of r.matches) process.stdout.write(formatLocated(m, cwd) + '\n\n');
  const what = r.matches.length === 1 ? '1 match' : `${r.matches.length} matches`;
  process.stdout.write(`${what}${r.truncated ? ' (more not shown: raise --limit)' : ''} in ${r.ledgers.length} ledger(s) under ${root}\n`);
  return r.matches.length > 0 ? 0 : 1;
}
