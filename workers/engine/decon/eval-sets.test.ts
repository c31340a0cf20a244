// Eval set readers: item texts and ids from each format, the way spreadsheets and dataset exports write them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { loadEvalSet } from './eval-sets.js';

describe('loadEvalSet', () => {
  it('CSV with a byte-order mark and a quoted field holding a comma and a line break', async () => {
    const path = join(scratchDir(), 'e.csv');
    writeFileSync(path, '\uFEFFid,question\r\nq1,"first, line\nsecond line"\r\nq2,plain\r\n');
    const s = await loadEvalSet({ name: 'e', path, fields: ['question'], idField: 'id' });
    expect(s.items).toEqual([{ id: 'q1', text: 'first, line\nsecond line' }, { id: 'q2', text: 'plain' }]);
    expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('JSON array and JSONL: arrays of strings and numbers joined with a space, row numbers as default ids', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'a.json'), JSON.stringify([{ q: 'what', choices: ['a', 'b'], answer: 2 }]));
    const j = await loadEvalSet({ name: 'a', path: join(dir, 'a.json'), fields: ['q', 'choices', 'answer'] });
    expect(j.items).toEqual([{ id: '0', text: 'what a b 2' }]);
    writeJsonl(join(dir, 'b.jsonl'), [{ q: 'x' }, { q: 'y' }]);
    const l = await loadEvalSet({ name: 'b', path: join(dir, 'b.jsonl'), fields: ['q'] });
    expect(l.items.map((i) => i.id)).toEqual(['0', '1']);
  });

  it('a JSON object without data, and a field holding an object, are refused', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'o.json'), JSON.stringify({ rows: [] }));
    await expect(loadEvalSet({ name: 'o', path: join(dir, 'o.json'), fields: ['q'] })).rejects.toThrow(/array of objects or \{"data": \[...\]\}/);
    writeFileSync(join(dir, 'n.json'), JSON.stringify([{ q: { nested: 1 } }]));
    await expect(loadEvalSet({ name: 'n', path: join(dir, 'n.json'), fields: ['q'] })).rejects.toThrow(/row 0 \(0-based\): .*lacks 'q' \(or it is not text\).*fields: q/);
  });
});
