// The demo builder: deterministic documents from nlp-corpus, real attributes, and a recipe in which every rule fires.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PreviewEngine } from '../index/index.js';
import { loadMixerConfig } from '../mix/config.js';
import { runMix } from '../mix/mixer.js';
import { readJsonlFile, scratchDir } from '../testing.js';
import { buildDemo, DEMO_MARKER } from './build.js';
import { generateDocuments } from './generate.js';
import { COOKIE_BANNER } from './planted.js';
import { DEMO_WARC } from './warc.js';

describe('demo workspace', () => {
  it('is the same for the same seed and different for another', () => {
    const a = generateDocuments(150, 3);
    expect(generateDocuments(150, 3)).toEqual(a);
    expect(generateDocuments(150, 4).map((d) => d.text)).not.toEqual(a.map((d) => d.text));
    expect(new Set(a.map((d) => d.id)).size).toBe(150);
  });

  it('builds documents, attributes, dedupe, MinHash and the index; the recipe’s every rule fires', async () => {
    const out = join(scratchDir(), 'demo');
    const lines: string[] = [];
    const s = await buildDemo({ out, docs: 300, seed: 7, perFile: 100, log: (l) => lines.push(l) });
    expect(s.indexed).toBe(300);
    expect(lines.some((l) => l.startsWith('tagging'))).toBe(true);
    expect(existsSync(join(out, DEMO_MARKER))).toBe(true);
    // The WARC part is a source beside the data (for the Sources dialog), not documents: the counts below are the generated ones.
    expect(existsSync(join(out, DEMO_WARC))).toBe(true);
    expect(readdirSync(join(out, 'attributes')).sort()).toEqual(['c4_rules', 'dedupe_paragraphs', 'gopher_rules', 'lang', 'minhash', 'pii', 'stats']);
    const first = readJsonlFile(join(out, 'documents', s.files[0]!.slice('documents/'.length)))[0] as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(['added', 'created', 'id', 'metadata', 'source', 'text']);

    const summary = await runMix(await loadMixerConfig(join(out, 'recipes/demo.yaml')), { cwd: out });
    const stream = summary.streams[0]!;
    expect(stream.docs.read).toBe(300);
    for (const rule of stream.droppedBy) expect(rule.docs, rule.label).toBeGreaterThan(0);
    expect(stream.droppedBy).toHaveLength(7);
    const kept = readdirSync(join(out, 'output/demo'))
      .filter((f) => f.endsWith('.gz'))
      .flatMap((f) => readJsonlFile(join(out, 'output/demo', f)).map((d) => String(d.text)));
    expect(kept).toHaveLength(stream.docs.kept);
    expect(kept.some((t) => t.includes('|||EMAIL_ADDRESS|||'))).toBe(true);
    expect(kept.some((t) => t.includes('|||PHONE_NUMBER|||'))).toBe(true);
    // The index built with the demo previews exactly what the mixer did.
    const engine = PreviewEngine.open(out);
    try {
      const preview = engine.preview(readFileSync(join(out, 'recipes/demo.yaml'), 'utf8'));
      expect(preview.total.kept.docs).toBe(stream.docs.kept);
      expect(preview.rules.filter((r) => r.kind === 'exclude').map((r) => r.sequential.docs)).toEqual(stream.droppedBy.map((d) => d.docs));
    } finally {
      engine.close();
    }
    // The paragraph dedupe removed every cookie banner but the first one the filter saw.
    const planted = s.planted.boilerplate ?? 0;
    expect(planted).toBeGreaterThan(2);
    expect(kept.filter((t) => t.includes(COOKIE_BANNER)).length).toBeLessThanOrEqual(1);
  });

  it('refuses a folder that is not empty', async () => {
    const out = scratchDir();
    writeFileSync(join(out, 'mine.txt'), 'keep me');
    await expect(buildDemo({ out, docs: 20 })).rejects.toThrow(/not empty/);
    expect(readFileSync(join(out, 'mine.txt'), 'utf8')).toBe('keep me');
  });
});
