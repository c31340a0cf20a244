// Rebuilds documents exactly as the mixer sees them (parsed line + attribute sets merged), for exact evaluation.
import type { Json } from '../../mix/filters/types.js';
import { mergeAttributeSets } from '../../mix/fate.js';
import type { IndexData } from '../store/data.js';
import type { SourceCache } from '../store/source.js';

export type Doc = Record<string, unknown>;

export class Materializer {
  constructor(
    private readonly data: IndexData,
    private readonly source: SourceCache,
  ) {}

  /** The document line of `g`, parsed (a fresh object every call: the mixer mutates what it holds). */
  raw(g: number): Doc {
    const f = this.data.fileOf(g);
    return JSON.parse(this.source.line(f.path, this.data.ordOf(f, g), { size: f.size, mtime: f.mtime })) as Doc;
  }

  /** The `attributes` object of set `set` for document `g`, or null when the set has no file for it. */
  attributes(g: number, set: string): Record<string, unknown> | null {
    const f = this.data.fileOf(g);
    const a = f.sets.get(set);
    if (a === undefined) return null;
    const rec = JSON.parse(this.source.line(a.path, this.data.ordOf(f, g), { size: a.size, mtime: a.mtime })) as { attributes: Record<string, unknown> };
    return rec.attributes;
  }

  /**
   * The merged document (mix/fate.ts mergeAttributeSets, as the mixer merges): each listed set that has a file here, in
   * order, overwrites keys; the result extends the document's own attributes object or replaces it.
   */
  merged(g: number, sets: readonly string[]): Json {
    const doc = this.raw(g);
    mergeAttributeSets(doc, sets.map((s) => this.attributes(g, s)).filter((a): a is Record<string, unknown> => a !== null));
    return doc as Json;
  }
}
