// Metadata rows are byte-identical to Python's csv.writer, which Dolma uses (checked against python3 when present).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { csvField } from './writer.js';

const FIELDS = ['', ' lead', 'tab\there', 'a,b', 'q"x', 'nl\nx', 'cr\rx', 'é', '"', 'plain-id', 's3://bucket/key,1.json.gz'];
const row = (f: string): string => `0,12,${csvField(f)},docs/a.jsonl,3\r\n`;

describe('csvField', () => {
  const py = spawnSync('python3', ['-c', 'import csv, io, json, sys\nb = io.StringIO()\nw = csv.writer(b)\nfor f in json.load(sys.stdin): w.writerow([0, 12, f, "docs/a.jsonl", 3])\nsys.stdout.write(b.getvalue())'], {
    input: JSON.stringify(FIELDS),
    encoding: 'utf8',
  });
  it.skipIf(py.status !== 0)("writes what Python's csv.writer writes (QUOTE_MINIMAL, \\r\\n rows)", () => {
    expect(FIELDS.map(row).join('')).toBe(py.stdout);
  });

  it('quotes only fields with a comma, quote or line break, doubling quotes', () => {
    expect(FIELDS.map(csvField)).toEqual(['', ' lead', 'tab\there', '"a,b"', '"q""x"', '"nl\nx"', '"cr\rx"', 'é', '""""', 'plain-id', '"s3://bucket/key,1.json.gz"']);
  });
});
