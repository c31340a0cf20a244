// Dolma's tokenizer traps and Assay's errors: dtype, raw memmaps read by Python, empty input, over-long documents, destinations, cancel.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { runTokens } from './runtime.js';
import { NEOX_EOS, NEOX_JSON, readOutputs } from './test-helpers.js';
import { loadTokenizer } from './tokenizer/load.js';

const neox = { nameOrPath: NEOX_JSON, eosTokenId: NEOX_EOS };

interface RawFile {
  length: number;
  rows: { start: number; end: number; id: string; src: string; loc: number; tokens: number[] }[];
}

const PY_READER = `
import array, csv, gzip, json, os, sys
folder, code = sys.argv[1], sys.argv[2]
assert array.array(code).itemsize == (2 if code == 'H' else 4)
out = {}
for name in sorted(os.listdir(folder)):
    if not name.endswith('.npy'):
        continue
    a = array.array(code)
    with open(os.path.join(folder, name), 'rb') as f:
        a.frombytes(f.read())
    if sys.byteorder != 'little':
        a.byteswap()
    rows = []
    with gzip.open(os.path.join(folder, name[:-4] + '.csv.gz'), 'rt', newline='') as f:
        for start, end, id_, src, loc in csv.reader(f):
            rows.append({'start': int(start), 'end': int(end), 'id': id_, 'src': src, 'loc': int(loc), 'tokens': a[int(start):int(end)].tolist()})
    out[name] = {'length': len(a), 'rows': rows}
print(json.dumps(out))
`;

/**
 * The memmaps and CSVs read without any of Assay's code: Python's `array`, `gzip` and `csv` when
 * python3 is installed, else a DataView reader with a minimal RFC 4180 parser written here.
 */
function readIndependently(folder: string, bytes: 2 | 4): Record<string, RawFile> {
  const py = spawnSync('python3', ['-c', PY_READER, folder, bytes === 2 ? 'H' : 'I'], { encoding: 'utf8' });
  if (py.status === 0) return JSON.parse(py.stdout) as Record<string, RawFile>;
  if (py.error === undefined) throw new Error(`python3 reader failed: ${py.stderr}`);
  const out: Record<string, RawFile> = {};
  for (const name of readdirSync(folder).filter((n) => n.endsWith('.npy')).sort()) {
    const buf = readFileSync(join(folder, name));
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const length = buf.byteLength / bytes;
    const csv = gunzipSync(readFileSync(join(folder, name.replace(/\.npy$/, '.csv.gz')))).toString('utf8');
    const records: string[][] = [];
    let field = '';
    let rec: string[] = [];
    let quoted = false;
    for (let i = 0; i < csv.length; i++) {
      const c = csv[i] as string;
      if (quoted && c === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = !quoted;
      } else if (!quoted && c === ',') {
        rec.push(field);
        field = '';
      } else if (!quoted && c === '\r' && csv[i + 1] === '\n') {
        rec.push(field);
        records.push(rec);
        rec = [];
        field = '';
        i++;
      } else {
        field += c;
      }
    }
    out[name] = {
      length,
      rows: records.map(([start, end, id, src, loc]) => {
        const tokens: number[] = [];
        for (let i = Number(start); i < Number(end); i++) tokens.push(bytes === 2 ? view.getUint16(i * 2, true) : view.getUint32(i * 4, true));
        return { start: Number(start), end: Number(end), id: id as string, src: src as string, loc: Number(loc), tokens };
      }),
    };
  }
  return out;
}

/** The GPT-NeoX fixture plus a special token with id 70,000, so ids need uint32. */
function bigVocabTokenizer(dir: string): string {
  const j = JSON.parse(readFileSync(NEOX_JSON, 'utf8')) as { added_tokens: object[] };
  j.added_tokens.push({ id: 70000, content: '<|big|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const path = join(dir, 'big.json');
  writeFileSync(path, JSON.stringify(j));
  return path;
}

describe('raw memmaps, read without Assay', () => {
  it('uint16: rows tile the .npy exactly, slices are the documents encoded + EOS, quoted ids survive Python csv', async () => {
    const dir = scratchDir();
    const docs = [
      { id: 'a,b', text: 'Commas in the id.' },
      { id: 'say "hi"', text: 'Quotes in the id.' },
      { id: 'line\nbreak', text: 'A newline in the id.' },
      ...Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, text: `Document number ${i} talks about ${'tokens '.repeat(i % 7)}and memmaps.` })),
    ];
    writeJsonl(join(dir, 'docs/a.jsonl'), docs);
    await runTokens({ documents: ['docs/a.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, maxSize: 120 });
    const files = readIndependently(join(dir, 'out'), 2);
    expect(Object.keys(files).length).toBeGreaterThan(1);
    const tok = await loadTokenizer({ nameOrPath: NEOX_JSON });
    const seen = new Set<string>();
    for (const f of Object.values(files)) {
      expect(f.rows[0]?.start).toBe(0);
      expect(f.rows.at(-1)?.end).toBe(f.length);
      expect(f.length).toBeLessThan(120);
      f.rows.forEach((r, k) => {
        if (k > 0) expect(r.start).toBe(f.rows[k - 1]?.end);
        const doc = docs[r.loc - 1]!;
        expect(r.id).toBe(doc.id);
        expect(r.src).toBe('docs/a.jsonl');
        expect(r.tokens).toEqual([...tok.encode(doc.text), NEOX_EOS]);
        seen.add(r.id);
      });
    }
    expect(seen.size).toBe(docs.length);
  });

  it('uint32 for a vocabulary above 65,536 ids; uint16 for it is refused before any work', async () => {
    const dir = scratchDir();
    const big = bigVocabTokenizer(dir);
    writeJsonl(join(dir, 'docs/a.jsonl'), [{ id: 'x', text: 'before <|big|> after' }]);
    await expect(runTokens({ documents: ['docs/a.jsonl'], destination: 'u16', tokenizer: { nameOrPath: big, eosTokenId: NEOX_EOS }, cwd: dir })).rejects.toMatchObject({
      code: 'CONFIG',
      field: 'dtype',
      message: expect.stringMatching(/uint16 does not match the tokenizer: 70,001 ids need uint32/) as unknown,
    });
    expect(existsSync(join(dir, 'u16'))).toBe(false);
    await runTokens({ documents: ['docs/a.jsonl'], destination: 'u32', tokenizer: { nameOrPath: big, eosTokenId: NEOX_EOS }, dtype: 'uint32', cwd: dir });
    const files = Object.values(readIndependently(join(dir, 'u32'), 4));
    expect(files).toHaveLength(1);
    expect(files[0]!.rows[0]!.tokens).toContain(70000);
    expect(files[0]!.rows[0]!.tokens.at(-1)).toBe(NEOX_EOS);
    expect(files[0]!.length).toBe(files[0]!.rows[0]!.end);
  });
});

describe("Dolma's traps and clear errors", () => {
  it('a document longer than max_size goes alone into its own file and the run ends', async () => {
    const dir = scratchDir();
    const long = 'word '.repeat(300);
    writeJsonl(join(dir, 'docs/a.jsonl'), [...Array.from({ length: 12 }, (_, i) => ({ id: `s${i}`, text: `short ${i}` })), { id: 'long', text: long }]);
    const s = await runTokens({ documents: ['docs/a.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, maxSize: 25, batchSize: 4 });
    const rows = readOutputs(join(dir, 'out'));
    expect(rows).toHaveLength(13);
    const own = s.outputs.filter((o) => o.oversized);
    expect(own).toHaveLength(1);
    expect(own[0]!.docs).toBe(1);
    expect(rows.filter((r) => r.part === own[0]!.csv).map((r) => r.id)).toEqual(['long']);
    expect(own[0]!.tokens).toBeGreaterThanOrEqual(300);
    for (const o of s.outputs.filter((x) => !x.oversized)) expect(o.tokens).toBeLessThan(25);
  });

  it('empty input never creates an output file; no matching file is an error', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'docs/a.jsonl'), [{ id: '1', text: '' }, { id: '2', text: ' \n\t ' }]);
    writeFileSync(join(dir, 'docs/b.jsonl'), '');
    const logs: string[] = [];
    const s = await runTokens({ documents: ['docs/*.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, log: (m) => logs.push(m) });
    expect(s).toMatchObject({ docs: 0, skippedEmpty: 2, outputs: [] });
    expect(readdirSync(join(dir, 'out'))).toEqual(['.assay']);
    expect(logs.join('\n')).toMatch(/no non-empty documents in 2 input file\(s\): nothing was written/);
    await expect(runTokens({ documents: ['nothing/*.jsonl'], destination: 'out2', tokenizer: neox, cwd: dir })).rejects.toThrow(/no documents match 'nothing\/\*\.jsonl'/);
  });

  it('a missing tokenizer, missing BOS/EOS or an id outside the vocabulary fails before anything is written', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'docs/a.jsonl'), [{ id: '1', text: 'x' }]);
    const base = { documents: ['docs/a.jsonl'], destination: 'out', cwd: dir };
    await expect(runTokens({ ...base, tokenizer: { nameOrPath: 'missing/tokenizer.json', eosTokenId: 0 } })).rejects.toThrow(/no tokenizer file at .*missing\/tokenizer\.json/);
    await expect(runTokens({ ...base, tokenizer: { nameOrPath: NEOX_JSON } })).rejects.toMatchObject({ code: 'CONFIG', field: 'tokenizer.eos_token_id' });
    await expect(runTokens({ ...base, tokenizer: { nameOrPath: NEOX_JSON, eosTokenId: 50280 } })).rejects.toThrow(/50280 is not a token id of this tokenizer \(0 … 50279\)/);
    await expect(runTokens({ ...base, tokenizer: { nameOrPath: 'gpt2', eosTokenId: 50256 }, dtype: 'uint32' })).rejects.toThrow(/uint32 does not match the tokenizer: 50,257 ids need uint16/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it("refuses a destination holding other part files; replaces its own earlier outputs, stale ones included", async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'docs/a.jsonl'), Array.from({ length: 30 }, (_, i) => ({ id: `${i}`, text: `document ${i} with a few words` })));
    const first = await runTokens({ documents: ['docs/a.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, maxSize: 40 });
    expect(first.outputs.length).toBeGreaterThan(2);
    const second = await runTokens({ documents: ['docs/a.jsonl'], destination: 'out', tokenizer: neox, cwd: dir });
    expect(second.outputs).toHaveLength(1);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['.assay', 'part-0-00000.csv.gz', 'part-0-00000.npy']);
    mkdirSync(join(dir, 'foreign'));
    writeFileSync(join(dir, 'foreign/part-0-00000.npy'), Buffer.alloc(8));
    await expect(runTokens({ documents: ['docs/a.jsonl'], destination: 'foreign', tokenizer: neox, cwd: dir })).rejects.toThrow(/already holds 1 part file\(s\) not written by an earlier Assay run/);
  });

  it('cancelling publishes nothing and leaves no temporary files', async () => {
    const dir = scratchDir();
    // ~12 MB: longer than the tracker's 200 ms throttle, so the abort lands mid-run with parts already completed.
    for (let f = 0; f < 4; f++) writeJsonl(join(dir, `docs/${f}.jsonl`), Array.from({ length: 5000 }, (_, i) => ({ id: `${f}-${i}`, text: `text number ${i} `.repeat(40) })));
    const controller = new AbortController();
    let completedBeforeAbort = 0;
    // Each file's first 1,024 records are counted as soon as the ring opens it; beyond that, batches have been written.
    const onProgress = (p: { docs: number }): void => {
      if (p.docs <= 4096 || controller.signal.aborted) return;
      completedBeforeAbort = readdirSync(join(dir, 'out')).filter((n) => n.endsWith('.npy.tmp')).length;
      controller.abort();
    };
    const run = runTokens({ documents: ['docs/*.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, maxSize: 5000, batchSize: 500, signal: controller.signal, onProgress });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(completedBeforeAbort).toBeGreaterThan(0);
    // The destination folder the run created is removed with its lock (nothing was published into it).
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('a bad line on a 2-process run fails with file:line and publishes none of the other group either', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'docs/a.jsonl'), Array.from({ length: 50 }, (_, i) => ({ id: `a${i}`, text: `good document ${i}` })));
    writeJsonl(join(dir, 'docs/b.jsonl'), [{ id: 'b0', text: 'fine' }, '{"id": "b1", "text": ', { id: 'b2', text: 'never read' }]);
    const run = runTokens({ documents: ['docs/*.jsonl'], destination: 'out', tokenizer: neox, cwd: dir, processes: 2, maxSize: 30 });
    await expect(run).rejects.toThrow(/docs\/b\.jsonl:2: invalid JSON/);
    // The folder exists only if the other group got to write before the failure stopped it.
    expect(existsSync(join(dir, 'out')) ? readdirSync(join(dir, 'out')) : []).toEqual([]);
  }, 30_000);
});
