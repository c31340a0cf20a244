// Planted near-duplicates at measured Jaccard similarities: detection rates follow 1 − (1 − s⁸)¹⁴, and duplicate_of is right.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { minhashConfig } from '../../../../shared/dedupe/minhash-schema.js';
import { readJsonlFile, tempDir, writeJsonl } from '../../testing.js';
import { runMinhash } from './index.js';
import { detectionProbability, document, editWords, jaccard, Rng, shingleSet, shuffleParagraphs } from './test-corpus.js';

const t = tempDir('assay-minhash-planted-');
afterAll(() => t.cleanup());

interface Pair {
  a: string;
  b: string;
  s: number;
}

describe('planted duplicates (sha1, 64-bit, 14 × 8, 5-grams: the FineWeb config)', () => {
  it('detects pairs at the predicted rate per similarity band, and names the kept document', async () => {
    const rng = new Rng(20240421);
    const rows: { id: string; text: string }[] = [];
    const pairs: Pair[] = [];
    let n = 0;
    const add = (words: string[]): string => {
      const id = `doc-${n++}`;
      rows.push({ id, text: words.join(' ') });
      return id;
    };
    // Edits per pair chosen to spread similarities over 0.45–1.0; the Jaccard used is the measured one.
    const targets = [0.45, 0.55, 0.62, 0.68, 0.72, 0.76, 0.8, 0.85, 0.9, 0.95];
    for (const target of targets) {
      for (let r = 0; r < 30; r++) {
        const base = document(rng, 200);
        const edits = Math.round((196 * (1 - target)) / (5 * (1 + target)));
        const variant = editWords(rng, base, edits);
        pairs.push({ a: add(base), b: add(variant), s: jaccard(shingleSet(base), shingleSet(variant)) });
      }
    }
    for (let r = 0; r < 20; r++) {
      const base = document(rng, 240);
      const exact = [...base];
      const shuffled = shuffleParagraphs(rng, base, 40);
      const a = add(base);
      pairs.push({ a, b: add(exact), s: 1 }, { a, b: add(shuffled), s: jaccard(shingleSet(base), shingleSet(shuffled)) });
    }
    for (let r = 0; r < 100; r++) add(document(rng, 150)); // unrelated documents
    const dir = join(t.dir, 'data/documents');
    mkdirSync(dir, { recursive: true });
    const half = Math.floor(rows.length / 2);
    writeJsonl(join(dir, 'a.jsonl'), rows.slice(0, half));
    writeJsonl(join(dir, 'b.jsonl.gz'), rows.slice(half), { gzip: true });

    const cfg = minhashConfig.parse({ documents: [join(dir, '*')], name: 'mh', hash_fc: 'sha1', precision: 64 });
    const s = await runMinhash(cfg);
    expect(s.documents).toBe(rows.length);

    const out = [...readJsonlFile(join(t.dir, 'data/attributes/mh/a.jsonl')), ...readJsonlFile(join(t.dir, 'data/attributes/mh/b.jsonl.gz'))];
    expect(out.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    type Attrs = Record<string, unknown>;
    const byId = new Map(out.map((r) => [r.id as string, r.attributes as Attrs]));
    const cluster = (id: string): number | undefined => (byId.get(id)?.['mh__minhash_cluster_id'] as number[][] | undefined)?.[0]?.[2];

    // Every duplicate names a kept document of its own cluster, and each cluster keeps exactly one.
    const kept = new Map<number, string>();
    for (const [id, a] of byId) if (a['mh__minhash_cluster_id'] !== undefined && a['mh__minhash_duplicate'] === undefined) kept.set(cluster(id) as number, id);
    let dups = 0;
    for (const [id, a] of byId) {
      if (a['mh__minhash_duplicate'] === undefined) continue;
      dups++;
      const of = a['mh__minhash_duplicate_of'] as string;
      expect(byId.get(of)?.['mh__minhash_duplicate']).toBeUndefined();
      expect(cluster(of)).toBe(cluster(id));
      expect(kept.get(cluster(id) as number)).toBe(of);
    }
    expect(dups).toBe(s.duplicates);
    expect(kept.size).toBe(s.clusters);

    // Detection per similarity band vs the LSH prediction, within 4 standard deviations (+1 for tiny bands).
    const bands = [0.4, 0.6, 0.7, 0.75, 0.8, 0.9, 1.01];
    const seen: string[] = [];
    for (let i = 0; i + 1 < bands.length; i++) {
      const inBand = pairs.filter((p) => p.s >= (bands[i] as number) && p.s < (bands[i + 1] as number));
      if (inBand.length === 0) continue;
      const detected = inBand.filter((p) => cluster(p.a) !== undefined && cluster(p.a) === cluster(p.b)).length;
      const ps = inBand.map((p) => detectionProbability(p.s));
      const mean = ps.reduce((x, y) => x + y, 0);
      const sd = Math.sqrt(ps.reduce((x, p) => x + p * (1 - p), 0));
      seen.push(`[${bands[i]},${bands[i + 1]}): ${detected}/${inBand.length} detected, expected ${mean.toFixed(1)} ± ${sd.toFixed(1)}`);
      expect(Math.abs(detected - mean), seen.join('\n')).toBeLessThanOrEqual(4 * sd + 1);
    }
    expect(seen.length).toBeGreaterThanOrEqual(5);
    // Exact copies are always found.
    for (const p of pairs.filter((x) => x.s === 1)) expect(cluster(p.b)).toBe(cluster(p.a));
  });
});
