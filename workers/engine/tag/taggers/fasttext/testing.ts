// Test helpers for this folder: build a tagger from the family by name, wrap text as a TagDocument.
import type { Tagger, TagDocument } from '../../types.js';
import { fasttextTaggers } from './index.js';

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
