// The tokens run's ledger: every document a part pair holds, by the file and line it came from, with its token range.
import { rm, rename } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readLineBatches } from '../io/index.js';
import { createLedger, ledgerPathFor, TOKENS_INDEXES } from './schema.js';

/** One row of Python `csv` output (QUOTE_MINIMAL: quoted fields double their quotes). */
export function parseCsvRow(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quoted field');
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      i++; // the comma
    } else {
      const c = line.indexOf(',', i);
      const end = c < 0 ? line.length : c;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

/**
 * Reads the metadata CSVs the run just published (small: one row per document) rather than threading rows
 * through the pool; `src` is resolved against the run's directory so a mix ledger's shard paths meet it.
 */
export async function writeTokensLedger(destination: string, parts: readonly { npy: string; csv: string }[], cwd: string): Promise<string> {
  const path = ledgerPathFor(destination);
  const tmp = `${path}.tmp`;
  await rm(tmp, { force: true });
  const db = createLedger(tmp, 'tokens');
  try {
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
    const batch = db.transaction((npy: number, lines: readonly string[], file: string, first: number) => {
      lines.forEach((line, k) => {
        if (line === '') return;
        const f = parseCsvRow(line.replace(/\r$/, ''));
        if (f.length !== 5) throw new Error(`${file}:${first + k}: expected 5 CSV fields, found ${f.length}`);
        insert.run(fileId(resolve(cwd, f[3] as string)), Number(f[4]), f[2], npy, Number(f[0]), Number(f[1]));
      });
    });
    for (const p of parts) {
      const npy = fileId(resolve(p.npy));
      for await (const b of readLineBatches(p.csv)) batch(npy, b.lines, p.csv, b.firstLine);
    }
    db.exec(TOKENS_INDEXES);
    db.close();
  } catch (e) {
    db.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, path);
  return path;
}
