// `locate`: where documents went — input file:line → fate and rule → output shard:line → tokens file and range.
import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { dirname, resolve, sep } from 'node:path';
import type { LedgerFate, LocatedDocument, LocateQuery, LocateResult, TokenRange } from '../../../shared/contract/ledger.js';
import { AssayError } from '../errors.js';
import { findLedgers } from './find.js';
import { shaKey } from './part.js';
import { KEPT, openLedger, REMOVED, type LedgerDB } from './schema.js';
import { scanTexts } from './scan.js';

export interface LocateOptions {
  signal?: AbortSignal;
  /** Most matches returned (default 1000; `contains` scans stop there). */
  limit?: number;
  /** Only the mix ledgers under this folder (one run's output); tokens ledgers are still looked for in all of `root`. */
  within?: string;
  /** `contains`: bytes of input documents scanned so far, of the total. */
  onProgress?: (p: { done: number; total: number }) => void;
}

interface Row {
  doc_id: string;
  source: string;
  url: string | null;
  sha256: Buffer;
  stream: string;
  file: string;
  line: number;
  fate: number;
  replaced: number;
  shard: string | null;
  out_line: number | null;
  copies: number;
  key: string | null;
  text: string | null;
}

const SELECT = `SELECT d.doc_id, d.source, d.url, d.sha256, s.name AS stream, f.path AS file, d.line, d.fate, d.replaced,
  sf.path AS shard, d.out_line, d.copies, r.key, r.text
  FROM docs d JOIN files f ON f.id = d.file JOIN streams s ON s.id = d.stream
  LEFT JOIN files sf ON sf.id = d.shard LEFT JOIN rules r ON r.stream = d.stream AND r.reason = d.fate`;

export function fateOf(fate: number, key: string | null, text: string | null): LedgerFate {
  if (fate === KEPT) return { kind: 'kept', exclude: null, rule: null, message: 'kept' };
  if (fate === REMOVED) return { kind: 'removed', exclude: null, rule: null, message: 'removed by request (assay remove; see the manifest)' };
  if (key === 'include') return { kind: 'no_include', exclude: null, rule: null, message: 'dropped: no include rule matched' };
  if (key === 'sample') return { kind: 'not_sampled', exclude: null, rule: text, message: `dropped: ${text ?? 'not sampled'}` };
  if (key === 'min_text_length') return { kind: 'min_text_length', exclude: null, rule: text, message: `dropped: ${text ?? 'min_text_length'}` };
  const j = /^exclude\[(\d+)\]$/.exec(key ?? '');
  if (j === null) throw new Error(`ledger names an unknown rule '${key}' for fate ${fate}`);
  return { kind: 'excluded', exclude: Number(j[1]), rule: text, message: `dropped by ${key}: ${text}` };
}

/** Every match of `query` in every ledger under `root` (a workspace, a run's output folder, or a ledger file). */
export async function locate(root: string, query: LocateQuery, opts: LocateOptions = {}): Promise<LocateResult> {
  const limit = opts.limit ?? 1000;
  const paths = await findLedgers(root, opts.signal);
  const mix: { path: string; db: LedgerDB }[] = [];
  const tokens: { path: string; db: LedgerDB }[] = [];
  try {
    const within = opts.within === undefined ? null : resolve(opts.within) + sep;
    for (const path of paths) {
      const { db, kind } = await openLedger(path);
      if (kind === 'mix' && within !== null && !path.startsWith(within)) db.close();
      else (kind === 'mix' ? mix : tokens).push({ path, db });
    }
    const found: { ledger: string; row: Row }[] = [];
    if ('contains' in query) {
      const wanted = await containsLocations(mix, query.contains, limit + 1, opts); // one more tells a cut-off
      for (const { path, db } of mix) {
        const stmt = db.prepare(`${SELECT} WHERE f.path = ? AND d.line = ?`);
        for (const w of wanted) for (const row of stmt.all(w.file, w.line) as Row[]) found.push({ ledger: path, row });
      }
    } else {
      const [where, value] = whereOf(query);
      for (const { path, db } of mix) for (const row of db.prepare(`${SELECT} WHERE ${where} ORDER BY d.rowid LIMIT ?`).all(...value, limit + 1) as Row[]) found.push({ ledger: path, row });
    }
    // One prepared lookup per tokens ledger, reused for every match.
    const ranges = tokens.map((t) => ({ path: t.path, stmt: t.db.prepare(TOKEN_RANGES) }));
    const matches = found.slice(0, limit).map(({ ledger, row }) => toLocated(ledger, row, ranges));
    return { ledgers: mix.map((m) => m.path), matches, truncated: found.length > limit };
  } finally {
    for (const l of [...mix, ...tokens]) l.db.close();
  }
}

function whereOf(q: Exclude<LocateQuery, { contains: string }>): [string, unknown[]] {
  if ('id' in q) return ['d.doc_id = ?', [q.id]];
  if ('url' in q) return ['d.url = ?', [q.url]];
  const hex = q.textHash.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new AssayError('CONFIG', `a text hash is 64 hex digits (sha256 of the UTF-8 text), not '${q.textHash}'`);
  const sha = Buffer.from(hex, 'hex');
  return ['d.sha_key = ? AND d.sha256 = ?', [shaKey(sha), sha]];
}

/** The hash `--text-file` looks up: sha256 of the file's bytes, as the ledger hashes a document's UTF-8 text. */
export const textHashOf = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** Input documents (file:line) whose text contains `needle`, from the files the ledgers list, each read once. */
async function containsLocations(mix: readonly { db: LedgerDB }[], needle: string, limit: number, opts: LocateOptions): Promise<{ file: string; line: number }[]> {
  if (needle === '') throw new AssayError('CONFIG', 'locate --contains needs a non-empty substring');
  const files = new Set<string>();
  for (const { db } of mix) for (const r of db.prepare('SELECT DISTINCT f.path FROM docs d JOIN files f ON f.id = d.file').all() as { path: string }[]) files.add(r.path);
  return scanTexts([...files].sort(), needle, limit, opts);
}

const TOKEN_RANGES = 'SELECT n.path AS npy, t.start, t.end FROM tokens t JOIN files s ON s.id = t.src JOIN files n ON n.id = t.npy WHERE s.path = ? AND t.loc = ?';

function toLocated(ledger: string, r: Row, tokens: readonly { path: string; stmt: Statement }[]): LocatedDocument {
  const ranges: TokenRange[] = [];
  if (r.shard !== null && r.out_line !== null) {
    for (const t of tokens) {
      for (const x of t.stmt.all(r.shard, r.out_line) as { npy: string; start: number; end: number }[]) ranges.push({ ...x, ledger: t.path });
    }
  }
  return {
    ledger,
    output: dirname(dirname(ledger)),
    id: r.doc_id,
    source: r.source,
    url: r.url,
    sha256: r.sha256.toString('hex'),
    input: { file: r.file, line: r.line },
    stream: r.stream,
    fate: fateOf(r.fate, r.key, r.text),
    replacedChars: r.replaced,
    shard: r.shard === null || r.out_line === null ? null : { file: r.shard, line: r.out_line },
    copies: r.copies,
    tokens: ranges,
  };
}
