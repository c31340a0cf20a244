// Test helpers for this folder: build a tagger from the family by name, wrap text as a TagDocument, lid.176 on both runtimes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Tagger, TagDocument } from '../../types.js';
import { fasttextTaggers } from './index.js';
import { loadFastTextModel, type FastTextModel } from './model.js';
import { trainSupervised, type TrainOptions } from './train.js';

export const doc = (text: string): TagDocument => ({ id: 'd', text, source: '', metadata: {}, record: {} });

/** Creates the named tagger with raw (unvalidated) options, validated here as the runtime would. */
export async function makeTagger(name: string, raw: Record<string, unknown> = {}, cwd = process.cwd()): Promise<Tagger> {
  const spec = fasttextTaggers.find((s) => s.name === name);
  if (spec === undefined) throw new Error(`no tagger ${name}`);
  const opts: unknown = spec.options ? spec.options.parse(raw) : {};
  return spec.create(opts, { seed: 0, cwd });
}

/** `{type: score}` of the spans covering the whole text (document-level outputs). */
export function docScores(tagger: Tagger, text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of tagger.tag(doc(text))) if (s.start === 0 && s.end === text.length) out[s.type] = s.score;
  return out;
}

/** lid.176 loaded for the describe blocks of a file on the JavaScript predictor and on the WebAssembly build, released after. */
export function lid176BothRuntimes(): { js: () => FastTextModel; wasm: () => FastTextModel } {
  let js: FastTextModel | undefined;
  let wasm: FastTextModel | undefined;
  beforeAll(async () => {
    js = await loadFastTextModel();
    wasm = await loadFastTextModel(undefined, { runtime: 'wasm' });
  });
  afterAll(() => {
    js?.release();
    wasm?.release();
  });
  return { js: () => js as FastTextModel, wasm: () => wasm as FastTextModel };
}

/** Two small models trained here: a softmax one with n-grams (dense, unpruned buckets) and an hs one without (bucket 0). */
export const TINY_MODELS = [
  ['softmax', { loss: 'softmax' as const, minn: 2, maxn: 4 }],
  ['hs', { loss: 'hs' as const, minn: 0, maxn: 0 }],
] as const;

/** Trains `dir/<name>.bin` on 300 lines of three topics; its path. */
export async function trainTiny(dir: string, name: string, opts: TrainOptions): Promise<string> {
  const lines: string[] = [];
  const labels = ['news', 'sport', 'food'];
  const words = [['election', 'minister', 'vote'], ['goal', 'match', 'team'], ['recipe', 'bake', 'spicy']];
  for (let i = 0; i < 300; i++) lines.push(`__label__${labels[i % 3]} ${words[i % 3]!.join(' ')} common words ${i % 11}`);
  const train = join(dir, `${name}.txt`);
  writeFileSync(train, lines.join('\n') + '\n');
  const model = join(dir, `${name}.bin`);
  await trainSupervised(train, model, { ...opts, epoch: 5, dim: 10, bucket: 5000, wordNgrams: 1, lr: 0.5, seed: 1 });
  return model;
}
