// Rules on decon attributes keep (and redact) the same documents in `assay preview` as `assay mix` writes.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, PreviewEngine } from '../index/index.js';
import { parseMixerConfig } from '../mix/config.js';
import { runMix } from '../mix/mixer.js';
import { readJsonlFile, tempDir, writeJsonl } from '../testing.js';
import { runDecon } from './run.js';
import { lcg, vocabulary } from './test-corpus.js';

const { dir: root, cleanup } = tempDir('assay-decon-diff-');
let engine: PreviewEngine;
let contaminated: Set<string>;

beforeAll(async () => {
  const vocab = vocabulary(500, 3);
  const rnd = lcg(9);
  const words = (k: number): string => Array.from({ length: k }, () => vocab[rnd(vocab.length)]).join(' ');
  const items = Array.from({ length: 12 }, (_, k) => ({ id: `i${k}`, question: words(18 + rnd(10)) }));
  writeJsonl(join(root, 'evals/set.jsonl'), items);
  contaminated = new Set();
  for (const f of ['a', 'b']) {
    const docs = Array.from({ length: 150 }, (_, k) => {
      const id = `${f}${k}`;
      if (k % 7 !== 3) return { id, text: `${words(10)}. ${words(15)}.`, source: f };
      contaminated.add(id);
      const item = items[rnd(items.length)]?.question ?? '';
      return { id, text: `${words(6)}. ${k % 2 ? item.toUpperCase() : item}! ${words(8)}.`, source: f };
    });
    writeJsonl(join(root, `documents/${f}.jsonl.gz`), docs);
  }
  await runDecon({ documents: ['documents/*'], name: 'ctm', sets: [{ name: 'set', path: join(root, 'evals/set.jsonl'), fields: ['question'], idField: 'id' }], indexPath: 'set.idx', cwd: root });
  await buildIndex(root);
  engine = PreviewEngine.open(root);
}, 120_000);

afterAll(() => {
  engine.close();
  cleanup();
});

const recipe = (rules: string): string => `streams:\n  - name: s\n    documents: [documents/*]\n    attributes: [ctm]\n    output: {path: out, max_size_in_bytes: 100000000}\n${rules}`;

async function mixed(text: string): Promise<Record<string, unknown>[]> {
  try {
    await runMix(parseMixerConfig(text, 'recipe.yaml'), { cwd: root, processes: 1 });
    const dir = join(root, 'out');
    return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(dir, f))) : [];
  } finally {
    rmSync(join(root, 'out'), { recursive: true, force: true });
  }
}

describe('decon attributes: preview = mix', () => {
  it.each([
    ['exclude on the n-gram count', '    filter:\n      exclude:\n        - "$.attributes[?(@.ctm__decon__ngrams && @.ctm__decon__ngrams[0] && @.ctm__decon__ngrams[0][2] > 0)]"\n'],
    ['exclude on the items count (jq)', '    filter:\n      syntax: jq\n      exclude:\n        - ".attributes.ctm__decon__items[0][2] >= 1"\n'],
  ])('%s drops exactly the contaminated documents in both', async (_name, rules) => {
    const text = recipe(rules);
    const kept = (await mixed(text)).map((d) => String(d.id)).sort();
    const preview = engine.preview(text, { ids: true });
    expect([...(preview.keptIds ?? [])].sort()).toEqual(kept);
    expect(kept).toHaveLength(300 - contaminated.size);
    expect(kept.some((id) => contaminated.has(id))).toBe(false);
  });

  it('span_replacement on the overlap spans redacts the same text in both', async () => {
    const text = recipe('    span_replacement:\n      - {span: $.attributes.ctm__decon__overlap, min_score: 0.5, replacement: "[EVAL]"}\n');
    const rows = await mixed(text);
    expect(rows).toHaveLength(300);
    const redacted = rows.filter((r) => String(r.text).includes('[EVAL]'));
    expect(new Set(redacted.map((r) => String(r.id)))).toEqual(contaminated);
    for (const row of rows) expect(engine.explain(text, String(row.id)).output, String(row.id)).toBe(row.text);
  });
});
