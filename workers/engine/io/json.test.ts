// readJsonRecords: parsed records with line numbers, PARSE errors, requireId, onBadLine skipping.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { AssayError } from '../errors.js';
import { tempDir } from '../testing.js';
import { readJsonRecords, type JsonReadOptions, type JsonRecord } from './json.js';

const tmp = tempDir('assay-io-json-');
afterAll(tmp.cleanup);
let n = 0;
const file = (name: string, data: string | Buffer): string => {
  const p = join(tmp.dir, `${n++}-${name}`);
  writeFileSync(p, data);
  return p;
};

async function all(path: string, opts?: JsonReadOptions): Promise<JsonRecord[]> {
  const out: JsonRecord[] = [];
  for await (const batch of readJsonRecords(path, opts)) {
    expect(batch.length).toBeGreaterThan(0);
    out.push(...batch);
  }
  return out;
}

describe('readJsonRecords', () => {
  it('yields objects with 1-based lines and byte lengths', async () => {
    const path = file('ok.jsonl.gz', gzipSync('{"id":"a","text":"héllo"}\n{"id":2}\n'));
    const got = await all(path, { batchLines: 1 });
    expect(got).toEqual([
      { line: 1, value: { id: 'a', text: 'héllo' }, bytes: 26 },
      { line: 2, value: { id: 2 }, bytes: 8 },
    ]);
  });

  it('malformed JSON, a non-object or an empty line is PARSE naming file:line, after the good records', async () => {
    const cases: [string, string, number, RegExp][] = [
      ['bad.jsonl', '{"id":1}\n{"id":2}\n{"id":3,\n{"id":4}\n', 3, /invalid JSON/],
      ['arr.jsonl', '{"id":1}\n[1,2]\n', 2, /expected a JSON object, got an array/],
      ['null.jsonl', 'null\n', 1, /got null/],
      ['num.jsonl', '{"id":1}\n{"id":2}\n{"id":3}\n42\n', 4, /got number/],
      ['blank.jsonl', '{"id":1}\n\n{"id":3}\n', 2, /empty line/],
    ];
    for (const [name, text, line, msg] of cases) {
      const path = file(name, text);
      const seen: number[] = [];
      const run = async (): Promise<void> => {
        for await (const batch of readJsonRecords(path)) seen.push(...batch.map((r) => r.line));
      };
      await expect(run()).rejects.toMatchObject({ code: 'PARSE', file: path, line, message: expect.stringMatching(msg) });
      expect(seen).toEqual(Array.from({ length: line - 1 }, (_, i) => i + 1));
    }
  });

  it('requireId turns a record without id into PARSE', async () => {
    const path = file('noid.jsonl', '{"id":"x"}\n{"text":"no id"}\n');
    expect(await all(path)).toHaveLength(2);
    await expect(all(path, { requireId: true })).rejects.toMatchObject({ code: 'PARSE', line: 2, message: expect.stringContaining('"id"') });
  });

  it('onBadLine skips bad JSON, invalid UTF-8 and missing ids, reporting each with its line', async () => {
    const data = Buffer.concat([
      Buffer.from('{"id":1}\n{oops\n{"id":3}\n{"id":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n{"no":"id"}\n{"id":6}\n'),
    ]);
    const reported: AssayError[] = [];
    const got = await all(file('mixed.jsonl.gz', gzipSync(data)), { requireId: true, onBadLine: (e) => reported.push(e) });
    expect(got.map((r) => [r.line, r.value['id']])).toEqual([
      [1, 1],
      [3, 3],
      [6, 6],
    ]);
    expect(reported.map((e) => [e.code, e.line])).toEqual([
      ['PARSE', 2],
      ['PARSE', 4],
      ['PARSE', 5],
    ]);
  });
});
