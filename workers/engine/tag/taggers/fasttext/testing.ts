// Test helpers for this folder: build a tagger from the family by name, wrap text as a TagDocument, lid.176 on both runtimes.
import { afterAll, beforeAll } from 'vitest';
import type { Tagger, TagDocument } from '../../types.js';
import { fasttextTaggers } from './index.js';
import { loadFastTextModel, type FastTextModel } from './model.js';

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
