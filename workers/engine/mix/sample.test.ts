// assay.sample and assay.repeat in the mixer: deterministic by id and seed, per source, copies written, summarised and in the ledger.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locate } from '../ledger/locate.js';
import { readJsonlFile, tempDir, writeJsonl } from '../testing.js';
import { parseMixerConfig } from './config.js';
import { runMix } from './mixer.js';
import { sampleUnit } from './sample.js';

const DOCS = Array.from({ length: 600 }, (_, i) => ({ id: `d${i}`, text: `document ${i} `.repeat(1 + (i % 5)), source: ['web', 'books', 'code'][i % 3] as string }));

function recipe(out: string, assay: string): string {
  return `streams:
  - name: s
    documents: [documents/*.jsonl.gz]
    output: {path: ${out}}
    filter:
      exclude: ["$[?(@.id == 'd3')]"]
    assay: ${assay}
`;
}

async function mix(dir: string, out: string, assay: string, processes = 1): Promise<{ ids: string[]; droppedBy: Record<string, number>; kept: number }> {
  const s = await runMix(parseMixerConfig(recipe(out, assay), 'r.yaml'), { cwd: dir, processes });
  const rows = s.streams[0]!.shards.flatMap((f) => readJsonlFile(f));
  return { ids: rows.map((r) => String(r.id)), droppedBy: Object.fromEntries(s.streams[0]!.droppedBy.map((d) => [d.key, d.docs])), kept: s.streams[0]!.docs.kept };
}

describe('sampling in the mixer', () => {
  const { dir, cleanup } = tempDir('assay-sample-');
  writeJsonl(join(dir, 'documents/a.jsonl.gz'), DOCS.slice(0, 300));
  writeJsonl(join(dir, 'documents/b.jsonl.gz'), DOCS.slice(300));
  afterAll(cleanup);

  it('keeps exactly the documents whose hash of id and seed falls below the fraction, the same in every run', async () => {
    const a = await mix(dir, 'o1', '{sample: {fraction: 0.3, seed: 7}}');
    const want = DOCS.filter((d) => d.id !== 'd3' && sampleUnit(d.id, 7) < 0.3).map((d) => d.id);
    expect(a.ids).toEqual(want);
    expect(want.length).toBeGreaterThan(140);
    expect(want.length).toBeLessThan(220);
    expect(a.droppedBy).toEqual({ 'exclude[0]': 1, sample: 599 - want.length });
    expect((await mix(dir, 'o2', '{sample: {fraction: 0.3, seed: 7}}', 2)).ids).toEqual(want);
    // Another seed draws other documents; a larger fraction keeps a superset (plans stay nested).
    const other = await mix(dir, 'o3', '{sample: {fraction: 0.3, seed: 8}}');
    expect(other.ids).not.toEqual(want);
    const more = await mix(dir, 'o4', '{sample: {fraction: 0.6, seed: 7}}');
    expect(want.every((id) => more.ids.includes(id))).toBe(true);
  });

  it('per source fractions and repeats; unlisted sources keep everything once', async () => {
    const r = await mix(dir, 'o5', '{sample: {fraction: {web: 0.5}, seed: 1}, repeat: {code: 3}}');
    const keep = DOCS.filter((d) => d.id !== 'd3' && (d.source !== 'web' || sampleUnit(d.id, 1) < 0.5));
    const want = keep.flatMap((d) => new Array(d.source === 'code' ? 3 : 1).fill(d.id) as string[]);
    expect(r.ids).toEqual(want);
    expect(r.kept).toBe(want.length);
    // The ledger names each fate: not sampled, kept with its copies.
    const web = DOCS.find((d) => d.id !== 'd3' && d.source === 'web' && sampleUnit(d.id, 1) >= 0.5)!;
    expect((await locate(join(dir, 'o5'), { id: web.id })).matches[0]!.fate).toMatchObject({ kind: 'not_sampled', message: 'dropped: not sampled (assay.sample fraction web: 0.5, seed 1)' });
    const code = (await locate(join(dir, 'o5'), { id: 'd2' })).matches[0]!;
    expect(code).toMatchObject({ copies: 3, fate: { kind: 'kept' } });
    expect(r.ids.slice(code.shard!.line - 1, code.shard!.line + 2)).toEqual(['d2', 'd2', 'd2']);
  });

  it('refuses fractions outside (0, 1] and repeats below 1, naming the field', () => {
    expect(() => parseMixerConfig(recipe('o', '{sample: {fraction: 1.5}}'), 'r.yaml')).toThrow(/fraction.*at most 1/);
    expect(() => parseMixerConfig(recipe('o', '{repeat: 0}'), 'r.yaml')).toThrow(/repeat is at least 1/);
  });
});
