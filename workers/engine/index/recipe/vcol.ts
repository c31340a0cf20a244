// Column-at-a-time values: one tag (+ number) per document, and the operations filters need on them.
import type { Nums, Spans } from '../store/column.js';
import { markShared } from '../store/shared.js';
import { T } from '../store/tags.js';

/** A symbolic place in the merged document, so member steps can find the column of a deeper key. */
export type NodeRef =
  | { kind: 'doc' }
  | { kind: 'docpath'; path: string[] }
  | { kind: 'attrs' }
  | { kind: 'attr'; path: string[] };

/** Where a SPANS value's individual spans live, per document. */
export type SpanSource = (g: number) => { spans: Spans; from: number; to: number } | null;

export interface VCol {
  tag: Uint8Array;
  /** Read-only unless the operation allocated it (a column's own numbers may be float32). */
  num: Nums;
  /** Array lengths (SPANS / ODDARR / EMPTY), or code-point lengths of strings when known. */
  count?: Uint32Array;
  /** Lengths are implicit: 1 for SPANS, 0 for EMPTY (and there is no ODDARR). */
  unitCount?: boolean;
  node?: NodeRef;
  spans?: SpanSource;
}

export type Mode = 'jsonpath' | 'jq';

/** The array length of document g's value, or -1 when the column does not know it. */
export function countAt(v: VCol, g: number): number {
  if (v.count) return v.count[g] as number;
  if (v.unitCount) return v.tag[g] === T.SPANS ? 1 : 0;
  return -1;
}

export function vcol(n: number): VCol {
  return { tag: new Uint8Array(n), num: new Float64Array(n) };
}

/** One array of zeros per index size in use (a sampled and a whole engine may share a process). */
const zeroNums = new Map<number, Float64Array>();

/**
 * A column of booleans (TRUE/FALSE/UNKNOWN/…): its numbers are never read, so every such column
 * shares one array of zeros instead of allocating 8 bytes per document per operation.
 */
export function bools(n: number): VCol {
  let zeros = zeroNums.get(n);
  if (zeros === undefined) {
    if (zeroNums.size >= 4) zeroNums.clear();
    zeroNums.set(n, (zeros = new Float64Array(n)));
    markShared(zeros);
  }
  return { tag: new Uint8Array(n), num: zeros };
}

export function constant(n: number, tag: number, num = 0): VCol {
  // All-zero numbers are the shared zeros (never written: operations allocate what they write).
  const v = num === 0 ? bools(n) : vcol(n);
  v.tag.fill(tag);
  if (num !== 0) v.num.fill(num);
  return v;
}

/** Tags that pass through every operation unchanged. */
const isStuck = (t: number): boolean => t === T.UNKNOWN || t === T.ERROR || t === T.NOOUT;
const isArray = (t: number): boolean => t === T.SPANS || t === T.EMPTY || t === T.ODDARR || t === T.SPAN0;

/** `[i]` on every document's value, with JSONPath (missing → absent) or jq (strict, `?`) semantics. */
export function indexStep(v: VCol, i: number, mode: Mode, optional: boolean): VCol {
  const n = v.tag.length;
  // Elements keep their array's number (the first span's score) except spans past the first: copy on write.
  const out: VCol = { tag: new Uint8Array(n), num: v.num };
  let own = false;
  const missing = mode === 'jq' ? T.NULL : T.ABSENT;
  const typeError = mode === 'jq' ? (optional ? T.NOOUT : T.ERROR) : T.ABSENT;
  for (let g = 0; g < n; g++) {
    const t = v.tag[g] as number;
    let r: number = missing;
    switch (t) {
      case T.SPANS: {
        const c = countAt(v, g);
        const k = i < 0 ? c + i : i;
        if (c < 0) r = i === 0 ? T.SPAN0 : T.UNKNOWN;
        else if (k === 0) r = T.SPAN0;
        else if (k > 0 && k < c) {
          const s = v.spans?.(g);
          if (s) {
            if (!own) {
              out.num = Float64Array.from(v.num);
              own = true;
            }
            r = T.SPAN0;
            out.num[g] = s.spans.scores[s.from + k] as number;
          } else r = T.UNKNOWN;
        }
        break;
      }
      case T.SPAN0: {
        const k = i < 0 ? 3 + i : i;
        if (k === 2) r = T.NUM;
        else if (k === 0 || k === 1) r = T.ANY;
        break;
      }
      case T.ODDARR: {
        const c = countAt(v, g);
        const k = i < 0 ? c + i : i;
        r = c < 0 ? T.UNKNOWN : k >= 0 && k < c ? T.ANY : missing;
        break;
      }
      case T.EMPTY:
      case T.ABSENT:
        break;
      case T.NULL:
        r = mode === 'jq' && !optional ? T.ERROR : missing;
        break;
      case T.ANY:
      case T.UNKNOWN:
        r = T.UNKNOWN;
        break;
      case T.ERROR:
      case T.NOOUT:
        r = t;
        break;
      default:
        r = typeError;
    }
    out.tag[g] = r;
  }
  return out;
}

/**
 * A member step whose result column (`child`, from the index) is already known: JSONPath takes it as
 * is (absent wherever the parent is not an object); jq turns absent into null and applies its
 * strict-indexing errors to non-object parents.
 */
export function memberStep(parent: VCol, child: VCol, mode: Mode, optional: boolean): VCol {
  if (mode === 'jsonpath') {
    let needs = false;
    for (let g = 0; g < parent.tag.length && !needs; g++) needs = parent.tag[g] === T.ANY || isStuck(parent.tag[g] as number);
    if (!needs) return child;
  }
  const n = parent.tag.length;
  const out: VCol = { tag: new Uint8Array(n), num: child.num, count: child.count, unitCount: child.unitCount, node: child.node, spans: child.spans };
  for (let g = 0; g < n; g++) {
    const p = parent.tag[g] as number;
    let r: number;
    if (p === T.OBJ) r = mode === 'jq' && child.tag[g] === T.ABSENT ? T.NULL : (child.tag[g] as number);
    else if (p === T.ANY || p === T.UNKNOWN) r = T.UNKNOWN;
    else if (p === T.ERROR || p === T.NOOUT) r = p;
    else if (mode === 'jsonpath') r = T.ABSENT;
    else if (p === T.NULL || p === T.ABSENT) r = optional ? T.NULL : T.ERROR;
    else r = optional ? T.NOOUT : T.ERROR;
    out.tag[g] = r;
  }
  return out;
}

/** A member step on a value that is not a place in the document (a span, a number…): never an object. */
export function memberOfValue(v: VCol, mode: Mode, optional: boolean): VCol {
  // An object here is a computed one (from `if`), whose members the columns cannot name.
  const parent: VCol = { tag: v.tag.map((t) => (t === T.OBJ ? T.ANY : t)), num: v.num };
  return memberStep(parent, constant(v.tag.length, T.ABSENT), mode, optional);
}

/** JSONPath existence: the path found a node. */
export function exists(v: VCol): VCol {
  const n = v.tag.length;
  const out = bools(n);
  for (let g = 0; g < n; g++) {
    const t = v.tag[g] as number;
    out.tag[g] = t === T.UNKNOWN ? T.UNKNOWN : t === T.ABSENT ? T.FALSE : T.TRUE;
  }
  return out;
}

/** Kleene AND / OR of tri-state (TRUE/FALSE/UNKNOWN) columns: JSONPath conditions have no side effects. */
export function kleene(parts: readonly VCol[], op: 'and' | 'or'): VCol {
  const n = (parts[0] as VCol).tag.length;
  const out = bools(n);
  const decisive = op === 'and' ? T.FALSE : T.TRUE;
  const other = op === 'and' ? T.TRUE : T.FALSE;
  out.tag.fill(other);
  for (const p of parts) {
    const t = p.tag;
    const o = out.tag;
    for (let g = 0; g < n; g++) {
      const x = t[g] as number;
      if (x === decisive) o[g] = decisive;
      else if (x === T.UNKNOWN && o[g] !== decisive) o[g] = T.UNKNOWN;
    }
  }
  return out;
}

export function kleeneNot(v: VCol): VCol {
  const n = v.tag.length;
  const out = bools(n);
  for (let g = 0; g < n; g++) {
    const t = v.tag[g] as number;
    out.tag[g] = t === T.TRUE ? T.FALSE : t === T.FALSE ? T.TRUE : T.UNKNOWN;
  }
  return out;
}

export { isArray, isStuck };
