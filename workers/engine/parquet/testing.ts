// Test fixtures: small Parquet files shaped like FineWeb's shards (its nine columns and types), written with hyparquet-writer.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetWriteFile } from 'hyparquet-writer';

export interface FinewebRow {
  text: string;
  id: string;
  dump: string;
  url: string;
  date: string;
  file_path: string;
  language: string;
  language_score: number;
  token_count: number;
}

const WORDS = 'river bridge market bread harbour station village morning garden library winter letter'.split(' ');

/** `n` rows with distinct texts, ids, urls and scores (non-integer, as fastText's are); deterministic. */
export function finewebRows(n: number): FinewebRow[] {
  return Array.from({ length: n }, (_, i) => {
    const text = `Page ${i} about the ${WORDS[i % WORDS.length]}.\n\nIt has a second paragraph with ${i * 7} words, or so — naïve café ✓.`;
    return {
      text,
      id: `<urn:uuid:${String(i).padStart(8, '0')}-aaaa-4bbb-8ccc-${String(i * 31).padStart(12, '0')}>`,
      dump: i % 2 === 0 ? 'CC-MAIN-2024-10' : 'CC-MAIN-2023-50',
      url: `https://example.org/${WORDS[i % WORDS.length]}/${i}.html`,
      date: `2024-02-${String(1 + (i % 28)).padStart(2, '0')}T10:11:12Z`,
      file_path: `s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/1707/warc/CC-MAIN-2024${String(i).padStart(5, '0')}.warc.gz`,
      language: 'en',
      language_score: 0.5 + i / (2 * n + 1),
      token_count: 20 + i * 3,
    };
  });
}

/** FineWeb's column order and Parquet types (token_count is INT64 there). */
export function writeFinewebParquet(path: string, rows: FinewebRow[], rowGroupSize = 4): void {
  mkdirSync(dirname(path), { recursive: true });
  const col = <K extends keyof FinewebRow>(name: K): FinewebRow[K][] => rows.map((r) => r[name]);
  parquetWriteFile({
    filename: path,
    rowGroupSize,
    columnData: [
      { name: 'text', data: col('text'), type: 'STRING' },
      { name: 'id', data: col('id'), type: 'STRING' },
      { name: 'dump', data: col('dump'), type: 'STRING' },
      { name: 'url', data: col('url'), type: 'STRING' },
      { name: 'date', data: col('date'), type: 'STRING' },
      { name: 'file_path', data: col('file_path'), type: 'STRING' },
      { name: 'language', data: col('language'), type: 'STRING' },
      { name: 'language_score', data: col('language_score'), type: 'DOUBLE' },
      { name: 'token_count', data: col('token_count').map(BigInt), type: 'INT64' },
    ],
  });
}

/** Rows of a SQL query on DuckDB, the independent Parquet reader the tests check written files with. */
export async function duckRows(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
