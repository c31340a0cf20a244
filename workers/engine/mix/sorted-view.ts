// The fast path of stringifySorted: a view of a parsed JSON value that JSON.stringify writes with every object's keys sorted.

/** The value has something JSON.stringify would write differently from stringifySorted (or nests too deep). */
export const UNSUPPORTED: unique symbol = Symbol('unsupported');

/** Past this depth the member-by-member stringifier takes over (it has a stack-safe path). */
const MAX_VIEW_DEPTH = 200;

/** Canonical array-index keys (up to 2^32 - 2): objects list them first, in numeric order, whatever the insertion order. */
const isIndexKey = (k: string): boolean => {
  const c = k.charCodeAt(0);
  return c >= 0x30 && c <= 0x39 && /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;
};

/**
 * The last few key lists seen at each depth and their sorted order: documents of a file share their shape, so
 * comparing key lists replaces sorting them for nearly every document. A few per depth, because a document's
 * `metadata` and `attributes` sit at the same depth: with one slot they evicted each other and both were
 * sorted again for every document.
 */
const orderCache: { keys: string[]; sorted: string[] | null }[][] = [];
const WAYS = 4;

/** Whether two key lists are the same, in the same order. */
export const sameKeys = (a: readonly string[], b: readonly string[]): boolean => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** `keys` in code-unit order, or null when they already are in it. */
function sortedOrder(keys: string[], depth: number): string[] | null {
  const ways = (orderCache[depth] ??= []);
  for (let w = 0; w < ways.length; w++) {
    const c = ways[w] as { keys: string[]; sorted: string[] | null };
    if (sameKeys(keys, c.keys)) return c.sorted;
  }
  let inOrder = true;
  for (let i = 1; i < keys.length; i++) {
    if (!((keys[i - 1] as string) < (keys[i] as string))) {
      inOrder = false;
      break;
    }
  }
  const sorted = inOrder ? null : keys.slice().sort();
  if (ways.length >= WAYS) ways.pop();
  ways.unshift({ keys, sorted });
  return sorted;
}

/** Leaves JSON.stringify and stringifySorted write alike (undefined: skipped in objects, null in arrays, by both). */
const plainLeaf = (t: string): boolean => t === 'string' || t === 'number' || t === 'boolean' || t === 'undefined';

/** An array whose elements are all leaves both stringifiers write alike (its view is itself). */
function leavesOnly(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x === null) continue;
    const t = typeof x;
    if (t === 'object' || !plainLeaf(t)) return false;
  }
  return true;
}

/**
 * `value` itself where its objects' keys are already sorted, otherwise a copy in which only the objects
 * whose keys are out of order (and their ancestors) are rebuilt, shallowly, with keys inserted in sorted
 * order; UNSUPPORTED when JSON.stringify could not write the result as stringifySorted writes `value`:
 * class instances (Date, toJSON), functions, symbols, bigints, array-index keys out of code-unit order.
 */
export function sortedView(value: object, depth: number): unknown {
  if (depth > MAX_VIEW_DEPTH) return UNSUPPORTED;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (x === null) continue;
      const t = typeof x;
      if (t !== 'object') {
        if (!plainLeaf(t)) return UNSUPPORTED;
        continue;
      }
      // Spans ([start, end, score]) are most of an attributes object: arrays of leaves need no call.
      if (Array.isArray(x) && leavesOnly(x)) continue;
      const v = sortedView(x as object, depth + 1);
      if (v === UNSUPPORTED) return UNSUPPORTED;
      if (v !== x) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return UNSUPPORTED;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 0) return value;
  const order = sortedOrder(keys, depth);
  // Index keys would be written first whatever the order of insertion; sorted by code unit they may not be.
  if (order !== null && isIndexKey(keys[0] as string)) return UNSUPPORTED;
  let out: Record<string, unknown> | null = order === null ? null : {};
  for (const k of order ?? keys) {
    const x = obj[k];
    let v: unknown = x;
    if (x !== null) {
      const t = typeof x;
      if (t === 'object') {
        v = sortedView(x as object, depth + 1);
        if (v === UNSUPPORTED) return UNSUPPORTED;
      } else if (!plainLeaf(t)) return UNSUPPORTED;
    }
    if (order === null && v === x) continue;
    out ??= { ...obj };
    // A member named __proto__ stays a member (assignment would set the copy's prototype).
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
    else out[k] = v;
  }
  return out ?? value;
}
