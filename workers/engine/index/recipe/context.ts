// Resolves places of the merged document (what the mixer builds per stream) to columns, memoised per stream.
import type { Column } from '../store/column.js';
import type { IndexData } from '../store/data.js';
import { isShared } from '../store/shared.js';
import { DOC_SET, pathKey, T } from '../store/tags.js';
import { bools, constant, type NodeRef, type SpanSource, type VCol } from './vcol.js';

/** What the merge depends on: the attribute sets a stream lists, and which documents get an attributes object. */
export interface MergeScope {
  sets: readonly string[];
  /** 1 where at least one listed set has a file for the document's file (the mixer then merges into an object). */
  hasCursor: Uint8Array;
  /** Identifies the merge (sets and which files have which) for caches. */
  key: string;
}

/**
 * Bytes per document the memo may hold in columns it made (loaded columns are free): at 10^7 documents a
 * 20-rule recipe's intermediate columns would take over a gigabyte. Past the budget, values computed
 * inside another memoised computation go first (a rule's guard parts, once the guard is held), then the
 * least recently used: what a threshold edit needs — each rule's guard and compared value — stays.
 */
export const MEMO_BYTES_PER_DOC = 36;

/** Bytes a memoised value holds that nothing else does (0 for values that only view loaded columns). */
function ownBytes(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  let bytes = 0;
  for (const a of [(v as VCol).tag, (v as VCol).num, (v as VCol).count]) if (ArrayBuffer.isView(a) && !isShared(a)) bytes += a.byteLength;
  return bytes;
}

export class EvalContext {
  readonly n: number;
  /** Least recently used first (a Map iterates in insertion order; a hit re-inserts). */
  private readonly memos = new Map<string, { v: unknown; bytes: number; inner: boolean }>();
  private held = 0;
  private depth = 0;
  private readonly budget: number;

  constructor(
    readonly data: IndexData,
    readonly scope: MergeScope,
    bytesPerDoc = MEMO_BYTES_PER_DOC,
  ) {
    this.n = data.n;
    this.budget = bytesPerDoc * Math.max(data.n, 1 << 16);
  }

  /** `transient`: needed once (a sweep's operand, whose counts are cached apart): among the first to go. */
  memo<V>(key: string, f: () => V, transient = false): V {
    const hit = this.memos.get(key);
    if (hit !== undefined) {
      this.memos.delete(key);
      this.memos.set(key, hit);
      return hit.v as V;
    }
    this.depth++;
    let v: V;
    try {
      v = f();
    } finally {
      this.depth--;
    }
    const bytes = ownBytes(v);
    this.memos.set(key, { v, bytes, inner: transient || this.depth > 0 });
    this.held += bytes;
    for (const pass of [true, false]) {
      for (const [k, e] of this.memos) {
        if (this.held <= this.budget) return v;
        if (k === key || e.bytes === 0 || (pass && !e.inner)) continue;
        this.memos.delete(k);
        this.held -= e.bytes;
      }
    }
    return v;
  }

  node(ref: NodeRef): VCol {
    return this.memo(`node:${JSON.stringify(ref)}`, () => this.resolve(ref));
  }

  private resolve(ref: NodeRef): VCol {
    switch (ref.kind) {
      case 'doc':
        return { ...constant(this.n, T.OBJ), node: ref };
      case 'docpath': {
        const col = this.data.column(DOC_SET, ref.path);
        const v = fromColumn(col, ref);
        // Text is never dictionary-coded; its length in code points is known from the index.
        if (ref.path.length === 1 && ref.path[0] === 'text') v.count = this.data.chars;
        return v;
      }
      case 'attrs': {
        const inline = this.data.column(DOC_SET, ['attributes']);
        const tag = new Uint8Array(this.n);
        const h = this.scope.hasCursor;
        for (let g = 0; g < this.n; g++) tag[g] = h[g] ? T.OBJ : (inline.tag[g] as number);
        // Without inline attributes anywhere the numbers are all zero: the shared zeros, not a column of its own.
        return { tag, num: inline.present === 0 ? bools(this.n).num : inline.num, ...counts(inline), node: ref };
      }
      case 'attr':
        return this.merged(ref);
    }
  }

  /** Dolma's merge: later sets overwrite earlier ones key by key, on top of the document's own attributes. */
  private merged(ref: { kind: 'attr'; path: string[] }): VCol {
    const top = ref.path[0] as string;
    const sources: { col: Column; top: Column }[] = [
      { col: this.data.column(DOC_SET, ['attributes', ...ref.path]), top: this.data.column(DOC_SET, ['attributes', top]) },
      ...this.scope.sets.map((s) => ({ col: this.data.column(s, ref.path), top: this.data.column(s, [top]) })),
    ];
    const live = sources.filter((s) => s.top.present > 0);
    if (live.length === 0) return fromColumn(sources[0]!.col, ref);
    if (live.length === 1) return fromColumn(live[0]!.col, ref);
    const n = this.n;
    const winner = new Int8Array(n).fill(-1);
    live.forEach((s, i) => {
      const t = s.top.tag;
      for (let g = 0; g < n; g++) if (t[g] !== T.ABSENT) winner[g] = i;
    });
    const tag = new Uint8Array(n);
    const num = new Float64Array(n);
    const unit = live.every((s) => s.col.count === null);
    const count = unit ? null : new Uint32Array(n);
    for (let g = 0; g < n; g++) {
      const w = winner[g] as number;
      if (w < 0) continue;
      const c = (live[w] as { col: Column }).col;
      const t = c.tag[g] as number;
      tag[g] = t;
      num[g] = c.num[g] as number;
      if (count !== null) count[g] = c.count === null ? (t === T.SPANS ? 1 : 0) : (c.count[g] as number);
    }
    const spans: SpanSource = (g) => {
      const w = winner[g] as number;
      return w < 0 ? null : spanRange((live[w] as { col: Column }).col, g);
    };
    return { tag, num, ...(count === null ? { unitCount: true } : { count }), node: ref, spans };
  }

}

function spanRange(col: Column, g: number): { spans: ReturnType<Column['spans']>; from: number; to: number } | null {
  if (col.tag[g] !== T.SPANS) return null;
  const spans = col.spans();
  return { spans, from: spans.offsets[g] as number, to: spans.offsets[g + 1] as number };
}

function fromColumn(col: Column, ref: NodeRef): VCol {
  return { tag: col.tag, num: col.num, ...counts(col), node: ref, spans: (g) => spanRange(col, g) };
}

const counts = (col: Column): Pick<VCol, 'count' | 'unitCount'> => (col.count === null ? { unitCount: true } : { count: col.count });

/** The member `key` of a place, or null when the index does not keep keys that deep. */
export function memberRef(ref: NodeRef, key: string): NodeRef | null {
  switch (ref.kind) {
    case 'doc':
      return key === 'attributes' ? { kind: 'attrs' } : { kind: 'docpath', path: [key] };
    case 'docpath':
      return ref.path.length < 3 ? { kind: 'docpath', path: [...ref.path, key] } : null;
    case 'attrs':
      return { kind: 'attr', path: [key] };
    case 'attr':
      return ref.path.length < 2 ? { kind: 'attr', path: [...ref.path, key] } : null;
  }
}

export const refKey = (ref: NodeRef): string => (ref.kind === 'docpath' || ref.kind === 'attr' ? `${ref.kind}:${pathKey(ref.path)}` : ref.kind);
