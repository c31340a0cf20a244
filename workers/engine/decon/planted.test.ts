// Planted contamination: eval items hidden in a 10^5-document corpus at known offsets are found, and nothing else is.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDecon, type DeconSummary } from './run.js';
import { plantedCorpus, type Planted } from './test-corpus.js';

let dir: string;
let planted: Planted[];
let summary: DeconSummary;
const rows = new Map<string, Record<string, unknown>>();
const N = 13;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-decon-'));
  const corpus = plantedCorpus(100_000);
  planted = corpus.planted;
  await writeFile(join(dir, 'evals.jsonl'), corpus.evalItems.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(dir, 'documents'));
  for (const [k, docs] of corpus.files.entries()) await writeFile(join(dir, 'documents', `part-${k}.jsonl`), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
  summary = await runDecon({
    documents: ['documents/*.jsonl'],
    name: 'bench',
    sets: [{ name: 'qa', path: join(dir, 'evals.jsonl'), fields: ['question', 'choices'], idField: 'id' }],
    ngram: N,
    indexPath: 'qa.decon.idx',
    cwd: dir,
  });
  for (let k = 0; k < corpus.files.length; k++) {
    for (const line of (await readFile(join(dir, 'attributes', 'bench', `part-${k}.jsonl`), 'utf8')).split('\n').filter(Boolean)) {
      const r = JSON.parse(line) as { id: string; attributes: Record<string, unknown> };
      rows.set(r.id, r.attributes);
    }
  }
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('planted contamination', () => {
  it('tags every document, with the four keys always present', () => {
    expect(summary.tag?.docs).toBe(rows.size);
    expect(rows.size).toBeGreaterThanOrEqual(100_000);
    for (const a of rows.values()) expect(Object.keys(a).sort()).toEqual(['bench__decon__hits', 'bench__decon__items', 'bench__decon__ngrams', 'bench__decon__overlap']);
  });

  it('finds every planted occurrence of n or more words, with a span covering exactly its words (code points)', () => {
    const long = planted.filter((p) => p.words >= N);
    expect(new Set(long.map((p) => p.kind))).toEqual(new Set(['whole', 'truncated', 'case-punct', 'paragraph', 'astral']));
    for (const p of long) {
      const a = rows.get(p.docId) as Record<string, unknown>;
      expect(a.bench__decon__hits, p.docId).toEqual([`qa:${p.itemId}`]);
      expect(a.bench__decon__items).toEqual([[0, p.docLength, 1]]);
      expect(a.bench__decon__ngrams).toEqual([[0, p.docLength, p.words - N + 1]]);
      expect(a.bench__decon__overlap, p.docId).toEqual([[p.start, p.end, 1]]);
    }
  });

  it('items shorter than n words are not indexed (DataTrove skips them), so their planted copies are not flagged', () => {
    const short = planted.filter((p) => p.words < N);
    expect(short.length).toBeGreaterThan(0);
    expect(summary.index.sets[0]?.shortItems).toBe(new Set(short.map((p) => p.itemId)).size);
    for (const p of short) expect(rows.get(p.docId)?.bench__decon__hits).toEqual([]);
  });

  it('flags no clean document (near misses of n-1 eval words included)', () => {
    const plantedIds = new Set(planted.filter((p) => p.words >= N).map((p) => p.docId));
    let clean = 0;
    for (const [id, a] of rows) {
      if (plantedIds.has(id)) continue;
      clean++;
      expect(a.bench__decon__overlap, id).toEqual([]);
      expect(a.bench__decon__hits, id).toEqual([]);
      expect((a.bench__decon__ngrams as number[][])[0]?.[2], id).toBe(0);
    }
    expect(clean).toBeGreaterThanOrEqual(100_000);
  });

  it('a rerun reuses the saved index and skips every file by its marker', async () => {
    const again = await runDecon({ documents: ['documents/*.jsonl'], name: 'bench', sets: [{ name: 'qa', path: join(dir, 'evals.jsonl'), fields: ['question', 'choices'], idField: 'id' }], ngram: N, indexPath: 'qa.decon.idx', cwd: dir });
    expect(again.index.built).toBe(false);
    expect(again.index.sha256).toBe(summary.index.sha256);
    expect(again.tag?.files.every((f) => f.status === 'skipped')).toBe(true);
  });
});
