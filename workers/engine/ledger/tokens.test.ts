// The tokens ledger reads the metadata CSV as Python's csv wrote it: quoted fields with commas, quotes and line breaks.
import { describe, expect, it } from 'vitest';
import { csvField } from '../tokenize/writer.js';
import { parseCsv } from './tokens.js';

describe('parseCsv', () => {
  it('reads back every field csvField wrote, a record per row even when an id holds a line break', () => {
    const rows = [
      ['0', '3', 'plain', 'out/a.jsonl.gz', '1'],
      ['3', '9', 'a,"b"\nc\r\nd', 'out/with, comma.gz', '2'],
      ['9', '9', '', 'x', '3'],
    ];
    const text = rows.map((r) => r.map(csvField).join(',') + '\r\n').join('');
    expect(parseCsv(text)).toEqual(rows);
    expect(() => parseCsv('0,1,"open\r\n')).toThrow(/unterminated/);
  });
});
