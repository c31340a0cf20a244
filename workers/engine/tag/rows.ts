// A document's attributes object written by the C addon (native/rows.c): its spans in one array, the JSON in one call.
import { nativeAddon, type NativeAddon } from '../native-addon.js';
import { attributeKeyOf, codePointMap, roundScore, spanOffset } from './output.js';
import type { TagSpan } from './types.js';

/** What rowKey accepts: make_variable_name's characters, which JSON writes as they are. */
const PLAIN_KEY = /^\w{1,999}$/;
/** Types remembered per prefix (as output.ts's key cache); past it a type's id is found through its key. */
const TYPES_PER_PREFIX = 4096;
/** Keys remembered (the C table holds up to 65,536); past it a new key asks the addon each time. */
const KEYS_REMEMBERED = 70_000;

/** One tagger of an output set, as tag/file.ts holds it. */
export interface RowTagger {
  prefix: string;
  spec: { defaults?: readonly string[] };
}

/**
 * groupSpans + JSON.stringify for the addon. One per process or worker thread: the C side holds the keys made so far.
 * Writes nothing itself: `attributes` returns the text, or null for the caller to take the JavaScript path (a number
 * C cannot write exactly as JavaScript does, a key it does not hold), which gives the same row.
 */
export class NativeRows {
  readonly #addon: NativeAddon;
  readonly #handle: object;
  /** Key → its id in the C table; -1: not writable there. */
  readonly #ids = new Map<string, number>();
  readonly #types = new Map<string, Map<string, number>>();
  /** [key id (−1 − id: a default with no span yet), start, end, score] per entry. */
  /** Small at first, so that the warm-up grows it too. */
  #entries = new Float64Array(4 * 4);

  constructor(addon: NativeAddon) {
    this.#addon = addon;
    this.#handle = addon.rowWriter();
    // Every branch taken before V8 optimizes `attributes`: a branch it never saw (the first text with a surrogate pair,
    // the first default) would throw its optimized code away, and a fresh process would compile it again. Several
    // times, since V8 records no feedback for a function's first calls.
    const map = codePointMap('a\u{1F600}b');
    // 0.000005: roundScore's exact path (a possible tie).
    const spans = [{ start: 0, end: 4, type: 'a', score: 0.000005 }, { start: 1, end: 2, type: 'c', score: 1, codePoints: true }, { start: 0, end: 1, type: '', score: 1 }];
    for (let i = 0; i < 16; i++) {
      this.attributes([{ prefix: 'assay_warm_up', spec: { defaults: ['a', 'b'] } }], [spans], map);
      this.attributes([{ prefix: 'assay_warm_up', spec: {} }], [spans], null);
    }
  }

  /** The attributes object of one document (taggers[t]'s spans are spans[t]) as JSON text, or null. */
  attributes(taggers: readonly RowTagger[], spans: readonly (readonly TagSpan[])[], cpMap: Uint32Array | null): string | null {
    let n = 0;
    for (let t = 0; t < taggers.length; t++) {
      const { prefix, spec } = taggers[t]!;
      const types = this.#typesOf(prefix);
      if (spec.defaults)
        for (const type of spec.defaults) {
          const id = this.#id(types, prefix, type);
          if (id < 0) return null;
          n = this.#put(n, -1 - id, 0, 0, 0);
        }
      for (const s of spans[t]!) {
        if (s.type === '') continue;
        const id = this.#id(types, prefix, s.type);
        if (id < 0) return null;
        n = this.#put(n, id, spanOffset(s, s.start, cpMap), spanOffset(s, s.end, cpMap), roundScore(s.score));
      }
    }
    return this.#addon.rowAttrs(this.#handle, this.#entries, n >> 2);
  }

  #typesOf(prefix: string): Map<string, number> {
    let types = this.#types.get(prefix);
    if (types === undefined) this.#types.set(prefix, (types = new Map()));
    return types;
  }

  #id(types: Map<string, number>, prefix: string, type: string): number {
    let id = types.get(type);
    if (id !== undefined) return id;
    const key = attributeKeyOf(prefix, type);
    id = this.#ids.get(key);
    if (id === undefined) {
      id = PLAIN_KEY.test(key) ? this.#addon.rowKey(this.#handle, key) : -1;
      if (this.#ids.size < KEYS_REMEMBERED) this.#ids.set(key, id);
    }
    if (types.size < TYPES_PER_PREFIX) types.set(type, id);
    return id;
  }

  #put(n: number, key: number, start: number, end: number, score: number): number {
    if (n + 4 > this.#entries.length) {
      const grown = new Float64Array(this.#entries.length * 2);
      grown.set(this.#entries);
      this.#entries = grown;
    }
    const e = this.#entries;
    e[n] = key;
    e[n + 1] = start;
    e[n + 2] = end;
    e[n + 3] = score;
    return n + 4;
  }
}

let shared: NativeRows | null | undefined;

/** The process's (or thread's) writer, or null without the addon. */
export function nativeRows(): NativeRows | null {
  if (shared === undefined) {
    const addon = nativeAddon();
    shared = addon === null ? null : new NativeRows(addon);
  }
  return shared;
}
