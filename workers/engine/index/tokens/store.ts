// The token_counts table and the meta keys naming its tokenizer: written by the count phase, read by IndexData.
import { getMeta, hasTokenCounts, setMeta, type DB } from '../store/db.js';
import { pack, unpack } from '../store/pack.js';
import type { FileCounts } from './count.js';
import type { CountingTokenizer } from './tokenizer.js';

/** The tokenizer the index's counts come from, null when it has none. */
export function recordedTokenizer(db: DB): CountingTokenizer | null {
  const name = getMeta(db, 'tokenizer');
  const sha256 = getMeta(db, 'tokenizer_sha256');
  const eos = getMeta(db, 'tokenizer_eos');
  return name === undefined || sha256 === undefined || eos === undefined ? null : { name, sha256, eos: Number(eos) };
}

/** Makes `t` the index's tokenizer (inside the caller's transaction): counts of any other are deleted. */
export function recordTokenizer(db: DB, t: CountingTokenizer, keep: boolean): void {
  if (!keep) db.exec('DELETE FROM token_counts');
  setMeta(db, 'tokenizer', t.name);
  setMeta(db, 'tokenizer_sha256', t.sha256);
  setMeta(db, 'tokenizer_eos', String(t.eos));
}

/** Rows of files that are gone or changed (a changed file is counted again); returns the files still counted → hash. */
export function pruneCounts(db: DB): Map<number, string> {
  db.exec('DELETE FROM token_counts WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.id = token_counts.file AND f.hash = token_counts.hash AND f.docs = token_counts.docs)');
  return new Map((db.prepare('SELECT file, hash FROM token_counts').all() as { file: number; hash: string }[]).map((r) => [r.file, r.hash]));
}

/** One file's counts, committed on their own (statement-atomic), so an interrupted phase keeps what it finished. */
export function writeCounts(db: DB, r: FileCounts & { counts: Uint32Array }): void {
  db.prepare('INSERT OR REPLACE INTO token_counts(file, hash, docs, tokens, data) VALUES (?, ?, ?, ?, ?)').run(r.file, r.hash, r.counts.length, r.tokens, pack({ counts: r.counts }));
}

/** Counts valid for the index as it is (file hash and document count unchanged), by file id; empty without a tokenizer. */
export function loadCounts(db: DB): Map<number, Uint32Array> {
  const out = new Map<number, Uint32Array>();
  if (!hasTokenCounts(db) || recordedTokenizer(db) === null) return out;
  const rows = db.prepare('SELECT c.file AS file, c.data AS data FROM token_counts c JOIN files f ON f.id = c.file AND f.hash = c.hash AND f.docs = c.docs').all() as { file: number; data: Buffer }[];
  for (const r of rows) out.set(r.file, unpack(r.data).u32('counts'));
  return out;
}

/** One documents file's per-document source codes (into `names`) and estimated tokens, from its packed data. */
export interface FileSources {
  names: string[];
  codes: Uint32Array;
  tokens: Uint32Array;
}

/** Every documents file's sources and estimated tokens, by file id. */
export function sourcesByFile(db: DB): Map<number, FileSources> {
  const out = new Map<number, FileSources>();
  for (const r of db.prepare('SELECT id, data, sources FROM files').all() as { id: number; data: Buffer; sources: string }[]) {
    const p = unpack(r.data);
    out.set(r.id, { names: JSON.parse(r.sources) as string[], codes: p.u32('sourceCodes'), tokens: p.u32('tokens') });
  }
  return out;
}

/** Per source, the documents of the files `tokensOf` gives per-document tokens for, and the sum of those tokens. */
export function sumBySource(files: ReadonlyMap<number, FileSources>, tokensOf: (id: number, f: FileSources) => Uint32Array | undefined): Map<string, { docs: number; tokens: number }> {
  const out = new Map<string, { docs: number; tokens: number }>();
  for (const [id, f] of files) {
    const tokens = tokensOf(id, f);
    if (tokens === undefined) continue;
    for (let ord = 0; ord < f.codes.length; ord++) {
      const source = f.names[f.codes[ord] as number] as string;
      let c = out.get(source);
      if (c === undefined) out.set(source, (c = { docs: 0, tokens: 0 }));
      c.docs++;
      c.tokens += tokens[ord] as number;
    }
  }
  return out;
}

/** Per source, the documents with a valid count and the sum of their counts (empty without counts). */
export function countsBySource(db: DB, files = sourcesByFile(db)): Map<string, { docs: number; tokens: number }> {
  const counts = loadCounts(db);
  return sumBySource(files, (id) => counts.get(id));
}
