// The tokens run's ledger: every document a part pair holds, by the file and line it came from, with its token range.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { ledgerPathFor, TOKENS_INDEXES, writeLedgerFile } from './schema.js';

/**
 * The records of Python `csv` output (QUOTE_MINIMAL, rows ending in \r\n): a quoted field doubles its quotes and
 * may hold commas and line breaks (an id with a newline), so records are read from the whole text, not by line.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let v = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted field');
        v += text.slice(i, q);
        if (text[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      let j = i;
      while (j < n && text[j] !== ',' && text[j] !== '\r' && text[j] !== '\n') j++;
      v = text.slice(i, j);
      i = j;
    }
    row.push(v);
    if (text[i] === ',') i++;
    else {
      if (text[i] === '\r') i++;
      if (text[i] === '\n') i++;
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

/**
 * Reads the metadata CSVs the run just published (small: one row per document) rather than threading rows
 * through the pool; `src` is resolved against the run's directory so a mix ledger's shard paths meet it.
 */
export async function writeTokensLedger(destination: string, parts: readonly { npy: string; csv: string }[], cwd: string): Promise<string> {
  return writeLedgerFile(ledgerPathFor(destination), 'tokens', async (db) => {
    const files = new Map<string, number>();
    const addFile = db.prepare('INSERT INTO files(id, path) VALUES (?, ?)');
    const fileId = (p: string): number => {
      let id = files.get(p);
      if (id === undefined) {
        addFile.run((id = files.size + 1), p);
        files.set(p, id);
      }
      return id;
    };
    const insert = db.prepare('INSERT INTO tokens(src, loc, doc_id, npy, start, end) VALUES (?, ?, ?, ?, ?, ?)');
    const insertAll = db.transaction((npy: number, rows: readonly string[][], file: string) => {
      rows.forEach((f, k) => {
        if (f.length !== 5) throw new Error(`${file}: row ${k + 1}: expected 5 CSV fields, found ${f.length}`);
        insert.run(fileId(resolve(cwd, f[3] as string)), Number(f[4]), f[2], npy, Number(f[0]), Number(f[1]));
      });
    });
    // One row per document: small next to the memmaps, read whole.
    for (const p of parts) insertAll(fileId(resolve(p.npy)), parseCsv(gunzipSync(await readFile(p.csv)).toString('utf8')), p.csv);
    db.exec(TOKENS_INDEXES);
  });
}
