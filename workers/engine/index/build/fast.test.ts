// The byte scanner reads documents and attribute lines exactly as JSON.parse + ColumnSet do (differential, adversarial lines and files).
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type * as ZstdNapi from 'zstd-napi';
import { jsonEqual } from '../../mix/filters/jsonpath/index.js';
import type { Json } from '../../mix/filters/types.js';
import { rng, scratchDir } from '../../testing.js';
import { unpack } from '../store/pack.js';
import { SET_DEPTH } from '../store/tags.js';
import { JsonGen } from './adversarial.js';
import { ColumnSet, type ColumnData } from './collect.js';
import { extractExact } from './exact.js';
import { extractFile, type ExtractTask, type FileExtract } from './extract.js';
import { attributeLine, documentLine, extractFast, scanStats } from './fast.js';
import { Splitter } from './lines.js';
import { attributeRecord, DocsBuilder, parseDocument } from './records.js';
import { LineScanner } from './scan.js';

const zstd = createRequire(import.meta.url)('zstd-napi') as typeof ZstdNapi;
const STAT = { size: 0, mtimeMs: 0, hash: '', sha256: '0'.repeat(64) };
const ARRAYS = { ords: 'u32', tags: 'u8', nums: 'f64', counts: 'u32', starts: 'u32', ends: 'u32', laterScores: 'f64' } as const;

/** Columns as comparable data, in path order (the order columns are found in does not matter to the index). */
function view(cols: readonly ColumnData[]): unknown[] {
  return [...cols]
    .sort((a, b) => (JSON.stringify(a.path) < JSON.stringify(b.path) ? -1 : 1))
    .map((c) => {
      const u = unpack(c.blob);
      // Object.is semantics survive toEqual on arrays of numbers (-0 stays -0).
      return { path: c.path, dict: c.dict, present: c.present, ...Object.fromEntries(Object.entries(ARRAYS).map(([k, kind]) => [k, [...u[kind](k)]])) };
    });
}

function viewExtract(x: FileExtract): unknown {
  return { ...x, docs: x.docs && { ...x.docs, columns: view(x.docs.columns) }, sets: x.sets.map((s) => ({ ...s, columns: view(s.columns) })) };
}

/** A documents line: id (mostly a string), text, source, nested metadata, extra members; any order, now and then a duplicate key. */
function documentText(g: JsonGen, i: number): string {
  const id = g.chance(0.06) ? g.pick(['7', '-0', '1.5e3', '{"a":1}', '[1,"x"]', 'null', 'true']) : g.str(`doc-${i}${g.chance(0.2) ? g.text(3) : ''}`);
  const members: [string, string][] = [];
  if (!g.chance(0.02)) members.push(['id', id]);
  if (!g.chance(0.05)) members.push(['text', g.chance(0.04) ? g.value(1) : g.str(g.chance(0.5) ? g.text(60) : `  ${g.text(80, true)} `, g.chance(0.5) ? 0 : 0.2)]);
  if (!g.chance(0.1)) members.push(['source', g.chance(0.1) ? g.value(0) : g.str(g.pick(['web', 'books', 'wiki', 'c\u00f6de']), 0.1)]);
  if (!g.chance(0.2)) members.push(['metadata', g.chance(0.1) ? g.value(1) : g.obj([['length', g.num()], ['lang', g.str(g.pick(['en', 'de']))], ['deep', g.obj([['a', g.obj([['b', g.value(2)]])], ['n', g.num()]])]])]);
  if (g.chance(0.3)) members.push([g.pick(['added', 'attributes', 'x"y', 'k\u00e9y', '']), g.value(2)]);
  return g.ws() + g.obj(g.shuffle(members, () => g.value(1))) + g.ws();
}

/** An attribute line for a document whose id is `id` (re-spelled with other escapes), now and then one the mixer refuses. */
function attributeText(g: JsonGen, id: Json): string {
  const idText = typeof id === 'string' && !g.chance(0.03) ? g.str(id, 0.3) : g.chance(0.03) ? '"other"' : JSON.stringify(id);
  const attrs: [string, string][] = [];
  for (const k of ['s__t__a', 's__t__long_attribute_name_for_words', 'odd', 'nest', 'x']) if (!g.chance(0.3)) attrs.push([k, k === 'nest' ? g.value(2) : g.chance(0.7) ? g.spans() : g.value(1)]);
  const members: [string, string][] = [];
  if (!g.chance(0.01)) members.push(['id', idText]);
  members.push(['attributes', g.chance(0.02) ? g.pick(['[]', 'null', '3', '"a"']) : g.obj(g.shuffle(attrs, () => g.spans()))]);
  if (g.chance(0.2)) members.push([g.pick(['source', 'meta']), g.value(2)]);
  return g.ws() + g.obj(g.shuffle(members, () => g.value(0))) + g.ws();
}

/** Lines in one buffer, each followed by `\n`, with their ranges. */
function layout(lines: readonly string[]): { buf: Buffer; at: [number, number][] } {
  const buf = Buffer.from(lines.map((l) => `${l}\n`).join(''));
  const at: [number, number][] = [];
  for (let s = 0; s < buf.length; ) {
    const nl = buf.indexOf(0x0a, s);
    at.push([s, nl]);
    s = nl + 1;
  }
  return { buf, at };
}

describe('documentLine / attributeLine', () => {
  it('give the columns and measures JSON.parse gives, line by line, on adversarial documents and attribute records', () => {
    const g = new JsonGen(rng(11));
    const texts = Array.from({ length: 3000 }, (_, i) => documentText(g, i));
    // Broken copies: truncated, a stray character, a trailing comma.
    for (let i = 0; i < 300; i++) {
      const t = texts[g.int(texts.length)] as string;
      const cut = g.int(t.length);
      texts.push(g.chance(0.4) ? t.slice(0, cut) : g.chance(0.5) ? t.slice(0, cut) + g.pick([',', '}', '"', ']', 'x', '\\']) + t.slice(cut) : t.replace(/}\s*$/, ',}'));
    }
    const { buf, at } = layout(texts);
    const before = { ...scanStats };
    const fast = new DocsBuilder();
    const d = fast.collectors();
    const sc = new LineScanner();
    const exact = new DocsBuilder();
    const kept: Json[] = [];
    at.forEach(([s, e], i) => {
      const ok = documentLine(fast, d, sc, buf, s, e, isAscii(buf.subarray(s, e)), 'f', i + 1);
      exact.rawBytes += e - s + 1;
      const doc = parseDocument(texts[i] as string, 'f', i + 1);
      expect(ok, texts[i]).toBe(typeof doc !== 'string');
      if (typeof doc === 'string') return;
      exact.addParsed(doc);
      kept.push(doc.id as Json);
    });
    const parsed = scanStats.parsed - before.parsed;
    // The scanner read most lines itself and handed the unusual ones (duplicate keys, odd ids or texts, broken lines) to JSON.parse.
    expect(parsed).toBeGreaterThan(300);
    expect(parsed).toBeLessThan(at.length * 0.4);
    const [x, y] = [fast.done(null, STAT), exact.done(null, STAT)];
    expect({ ...x, columns: view(x.columns) }).toEqual({ ...y, columns: view(y.columns) });

    const attrTexts = kept.map((id) => attributeText(g, id));
    const a = layout(attrTexts);
    const fastSet = new ColumnSet(SET_DEPTH, [], kept.length);
    const exactSet = new ColumnSet(SET_DEPTH);
    const parsedBefore = scanStats.parsed;
    a.at.forEach(([s, e], ord) => {
      const id = kept[ord] as Json;
      const ok = attributeLine(fastSet, sc, a.buf, s, e, isAscii(a.buf.subarray(s, e)), ord, id, 'f');
      const r = attributeRecord(attrTexts[ord] as string, id, 'f');
      expect(ok, attrTexts[ord]).toBe('attributes' in r);
      if ('attributes' in r) exactSet.addObject(ord, r.attributes);
    });
    expect(scanStats.parsed - parsedBefore).toBeLessThan(a.at.length * 0.4);
    expect(view(fastSet.columns())).toEqual(view(exactSet.columns()));
  });
});

describe('extractFast', () => {
  const sets = ['s1', 's2'];

  function dataset(root: string, name: string, n: number, seed: number, write: (path: string, text: string) => void): void {
    const g = new JsonGen(rng(seed));
    const docs: string[] = [];
    const ids: Json[] = [];
    while (docs.length < n) {
      const t = documentText(g, docs.length);
      const doc = parseDocument(t, '', 0);
      // Ids JSON.stringify cannot spell back (1e400 becomes null) would make every attribute line a mismatch.
      if (typeof doc === 'string' || !jsonEqual(JSON.parse(JSON.stringify(doc.id)) as Json, doc.id as Json)) continue;
      docs.push(t);
      ids.push(doc.id as Json);
    }
    write(join(root, 'documents', name), docs.join('\n') + '\n');
    for (const s of sets) {
      const lines = ids.map((id) => {
        for (;;) {
          const t = attributeText(g, id);
          if ('attributes' in attributeRecord(t, id, '')) return t;
        }
      });
      write(join(root, 'attributes', s, name), lines.join('\r\n'));
    }
  }

  const gz = (path: string, text: string): void => writeFileSync(path, gzipSync(text));
  const zst = (path: string, text: string): void => writeFileSync(path, zstd.compress(Buffer.from(text)));
  const plain = (path: string, text: string): void => writeFileSync(path, text);
  const scratch = (): string => {
    const root = scratchDir();
    for (const dir of ['documents', 'attributes/s1', 'attributes/s2']) mkdirSync(join(root, dir), { recursive: true });
    return root;
  };

  it('reads whole files (gzip, zstd, plain; lines across decoder chunks; CRLF; no final newline) as the exact reader does', async () => {
    const root = scratch();
    dataset(root, 'a.jsonl.gz', 400, 1, gz);
    dataset(root, 'b.jsonl', 300, 2, plain);
    dataset(root, 'c.jsonl.zst', 300, 5, zst);
    // Over a megabyte decoded: lines straddle gunzip's and the file reader's chunks.
    dataset(root, 'big.jsonl.gz', 5000, 3, gz);
    dataset(root, 'big.jsonl', 5000, 4, plain);
    for (const file of ['a.jsonl.gz', 'b.jsonl', 'c.jsonl.zst', 'big.jsonl.gz', 'big.jsonl']) {
      const task: ExtractTask = { root, file: `documents/${file}`, docs: true, sets };
      const fast = await extractFast(task);
      expect(fast, file).not.toBeNull();
      const exact = await extractExact(task);
      expect(exact.docs?.problem ?? null).toBeNull();
      expect(viewExtract(fast as FileExtract), file).toEqual(viewExtract(exact));
      // Attribute sets alone (an unchanged documents file): checked against the indexed ids.
      const setsOnly: ExtractTask = { root, file: `documents/${file}`, docs: false, ids: exact.docs?.ids ?? [], sets };
      expect(viewExtract((await extractFast(setsOnly)) as FileExtract)).toEqual(viewExtract(await extractExact(setsOnly)));
    }
    const ac = new AbortController();
    ac.abort();
    await expect(extractFast({ root, file: 'documents/a.jsonl.gz', docs: true, sets }, ac.signal)).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('leaves every file the mixer would refuse to the exact reader, so problems keep its messages', async () => {
    const root = scratch();
    const good = '{"id":"a","text":"x"}\n{"id":"b","text":"y"}\n';
    const attrs = '{"id":"a","attributes":{}}\n{"id":"b","attributes":{}}\n';
    const cases: Record<string, [string | Buffer, string, string]> = {
      'malformed.jsonl': ['{"id":"a","text":"x"}\n{"id":"b","text":\n', attrs, attrs],
      'no-id.jsonl': ['{"id":"a","text":"x"}\n{"text":"y"}\n', attrs, attrs],
      'mismatch.jsonl': [good, attrs, '{"id":"a","attributes":{}}\n{"id":"c","attributes":{}}\n'],
      'short.jsonl': [good, attrs, '{"id":"a","attributes":{}}\n'],
      'long.jsonl': [good, attrs, `${attrs}{"id":"c","attributes":{}}\n`],
      'not-object.jsonl': [good, attrs, '{"id":"a","attributes":{}}\n{"id":"b","attributes":[]}\n'],
      'utf8.jsonl': [Buffer.concat([Buffer.from('{"id":"a","text":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"id":"b","text":"y"}\n')]), attrs, attrs],
      'tab.jsonl': ['{"id":"a","text":"x\ty"}\n{"id":"b","text":"y"}\n', attrs, attrs],
      'truncated.jsonl.gz': [gzipSync(good).subarray(0, 30), attrs, attrs],
    };
    for (const [name, [docs, s1, s2]] of Object.entries(cases)) {
      writeFileSync(join(root, 'documents', name), docs);
      writeFileSync(join(root, 'attributes/s1', name), name.endsWith('.gz') ? gzipSync(s1) : s1);
      writeFileSync(join(root, 'attributes/s2', name), name.endsWith('.gz') ? gzipSync(s2) : s2);
      const task: ExtractTask = { root, file: `documents/${name}`, docs: true, sets };
      expect(await extractFast(task), name).toBeNull();
      const exact = await extractExact(task);
      expect([exact.docs?.problem, ...exact.sets.map((s) => s.problem)].some((p) => p !== null), name).toBe(true);
      expect(viewExtract(await extractFile(task))).toEqual(viewExtract(exact));
    }
  });
});

describe('Splitter', () => {
  it('hands out the same lines however the decoded bytes are chunked; a line flagged ASCII is ASCII', () => {
    const r = rng(5);
    let flagged = 0;
    const text = Buffer.from(['a', '', 'bé', 'ccc', '😀x', 'd'.repeat(300), 'last'].join('\n'));
    for (let trial = 0; trial < 200; trial++) {
      const got: [string, boolean][] = [];
      const sp = new Splitter((buf, s, e, ascii) => {
        expect(buf[e]).toBe(0x0a);
        got.push([buf.toString('utf8', s, e), ascii]);
        return true;
      });
      for (let off = 0; off < text.length; ) {
        const n = 1 + Math.floor(r() * 40);
        expect(sp.push(text.subarray(off, off + n))).toBe(true);
        off += n;
      }
      expect(sp.end()).toBe(true);
      expect(got.map(([l]) => l)).toEqual(text.toString().split('\n'));
      for (const [l, ascii] of got) if (ascii) expect(isAscii(Buffer.from(l)), l).toBe(true);
      flagged += got.filter(([, ascii]) => ascii).length;
    }
    expect(flagged).toBeGreaterThan(0);
  });
});
