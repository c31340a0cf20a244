// The attribute catalogue (every key under attributes/ with its range) and value histograms.
import type { Histogram } from '../../../../shared/contract/preview.js';
import type { AttributeKeyInfo } from '../../../../shared/contract/workspace.js';
import { AssayError } from '../../errors.js';
import { BUILTIN_FAMILIES } from '../../tag/registry.js';
import type { Column } from '../store/column.js';
import type { IndexData } from '../store/data.js';
import { displayKey, DOC_SET, T } from '../store/tags.js';

const QUANTILES = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 1];
const cache = new WeakMap<IndexData, AttributeKeyInfo[]>();

/** Document-level value of each document with one: a number, or the first span's score. */
function numbers(col: Column): Float64Array {
  const out: number[] = [];
  for (let g = 0; g < col.tag.length; g++) {
    const t = col.tag[g];
    if ((t === T.NUM || t === T.SPANS) && Number.isFinite(col.num[g] as number)) out.push(col.num[g] as number);
  }
  return Float64Array.from(out);
}

export function catalogue(data: IndexData): AttributeKeyInfo[] {
  const hit = cache.get(data);
  if (hit) return hit;
  const out = data.keys
    .filter((k) => k.set !== DOC_SET && k.present > 0)
    .map((k): AttributeKeyInfo => {
      const col = data.column(k.set, k.path);
      const values = numbers(col).sort();
      let spans = 0;
      let multi = false;
      for (let g = 0; g < col.tag.length; g++) {
        if (col.tag[g] !== T.SPANS) continue;
        const c = col.count === null ? 1 : (col.count[g] as number);
        spans += c;
        if (c > 1) multi = true;
      }
      const known = describe(k.path);
      const key = displayKey(k.path);
      return {
        key,
        set: k.set,
        kind: multi || known?.level === 'spans' ? 'spans' : 'document',
        docs: k.present,
        spans,
        min: values.length ? (values[0] as number) : null,
        max: values.length ? (values[values.length - 1] as number) : null,
        quantiles: values.length ? QUANTILES.map((p) => ({ p, value: values[Math.min(values.length - 1, Math.floor(p * (values.length - 1)))] as number })) : [],
        ...(known ? { tagger: known.tagger, description: known.description } : {}),
      };
    })
    .sort((a, b) => (a.set === b.set ? (a.key < b.key ? -1 : 1) : a.set < b.set ? -1 : 1));
  cache.set(data, out);
  return out;
}

/** `<experiment>__<tagger>__<type>` of a known tagger → its description. */
function describe(path: readonly string[]): { tagger: string; description: string; level: string } | undefined {
  if (path.length !== 1) return undefined;
  const parts = (path[0] as string).split('__');
  if (parts.length < 3) return undefined;
  const tagger = parts[1] as string;
  const type = parts.slice(2).join('__');
  for (const fam of BUILTIN_FAMILIES) {
    const spec = fam.taggers.find((t) => t.name === tagger);
    if (!spec) continue;
    const out = spec.outputs.find((o) => o.type === type || (o.type.includes('*') && new RegExp(`^${o.type.split('*').map(escape).join('.*')}$`).test(type)));
    return { tagger, description: out?.description ?? spec.description, level: out?.level ?? 'document' };
  }
  return undefined;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Resolve `key` (or `set/key`) to the column with it, preferring the set with most documents. */
function columnFor(data: IndexData, key: string): Column {
  const slash = key.indexOf('/');
  const candidates = data.keys.filter((k) => k.set !== DOC_SET && k.present > 0 && (displayKey(k.path) === key || (slash > 0 && k.set === key.slice(0, slash) && displayKey(k.path) === key.slice(slash + 1))));
  if (candidates.length === 0) throw new AssayError('CONFIG', `no attribute key '${key}' in the index`, { field: 'key' });
  candidates.sort((a, b) => b.present - a.present);
  const best = candidates[0] as { set: string; path: string[] };
  return data.column(best.set, best.path);
}

export function histogram(data: IndexData, key: string, bins: number): Histogram {
  if (!Number.isInteger(bins) || bins < 1) throw new AssayError('CONFIG', 'bins must be a positive integer', { field: 'bins' });
  const values = numbers(columnFor(data, key));
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (values.length === 0) return { key, present: 0, total: data.n, min: 0, max: 0, edges: [0, 0], counts: new Array<number>(bins).fill(0) };
  const width = (max - min) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? max : min + width * i));
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) {
    const b = width === 0 ? 0 : Math.min(bins - 1, Math.floor((v - min) / width));
    counts[b]!++;
  }
  return { key, present: values.length, total: data.n, min, max, edges, counts };
}
