// MetricStatsDict: an insertion-ordered label → MetricStats map with defaultdict access, as in datatrove.utils.stats.
import { AssayError } from '../errors.js';
import { MetricStats, plain, type MetricStatsJson } from './metric.js';
import { pyJsonDumps, type PyDict, type PyJson } from './pyjson.js';

export class MetricStatsDict {
  readonly map = new Map<string, MetricStats>();

  constructor(init?: Iterable<readonly [string, MetricStats]>) {
    if (init) for (const [k, v] of init) this.map.set(k, v);
  }

  /** `d[key]` on the defaultdict: a missing key is created empty (and then serialises as 0). */
  get(key: string): MetricStats {
    let m = this.map.get(key);
    if (m === undefined) {
      m = new MetricStats();
      this.map.set(key, m);
    }
    return m;
  }

  /** `d.get(key)`: no insertion. */
  peek(key: string): MetricStats | undefined {
    return this.map.get(key);
  }

  get size(): number {
    return this.map.size;
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  /** `a + b`: keys of a then new keys of b, values summed (new objects; the operands are left alone). */
  plus(other: MetricStatsDict): MetricStatsDict {
    const out = new MetricStatsDict();
    for (const d of [this, other]) for (const [k, v] of d.map) out.map.set(k, out.map.get(k)?.plus(v) ?? v.clone());
    return out;
  }

  /** The k keys with the largest `n` (BaseStats / StatsMerger top-k), in heapq.nlargest order. */
  topKKeysByN(k: number): string[] {
    return nlargest(k, this.keys(), (key) => this.map.get(key)?.n ?? 0);
  }

  /** `topk(k)`: the k entries with the largest total. */
  topK(k = 20): MetricStatsDict {
    const keys = nlargest(k, this.keys(), (key) => this.map.get(key)?.total ?? 0);
    return new MetricStatsDict(keys.map((key) => [key, this.get(key)] as const));
  }

  /** Restricted to `keys`, in that order; missing keys come back empty (defaultdict indexing). */
  pick(keys: readonly string[]): MetricStatsDict {
    return new MetricStatsDict(keys.map((key) => [key, this.get(key)] as const));
  }

  toPyJson(): PyDict {
    const out: PyDict = new Map();
    for (const [k, v] of this.map) out.set(k, v.toPyJson());
    return out;
  }

  toDict(): Record<string, MetricStatsJson> {
    return plain(this.toPyJson()) as Record<string, MetricStatsJson>;
  }

  /** The bytes `json.dump(d.to_dict(), f)` writes. */
  toJson(): string {
    return pyJsonDumps(this.toPyJson());
  }

  static fromDict(data: PyJson, file?: string): MetricStatsDict {
    if (data === null || typeof data !== 'object' || Array.isArray(data) || !isObject(data)) {
      throw new AssayError('PARSE', 'a stats file must hold a JSON object', file === undefined ? {} : { file });
    }
    const out = new MetricStatsDict();
    for (const [k, v] of data instanceof Map ? data : Object.entries(data)) out.map.set(k, MetricStats.fromDict(v));
    return out;
  }
}

function isObject(v: object): v is PyDict | { [key: string]: PyJson } {
  return v instanceof Map || Object.getPrototypeOf(v) === Object.prototype;
}

/** `heapq.nlargest(k, items, key)`: descending by key, ties keep their input order. */
export function nlargest<T>(k: number, items: readonly T[], key: (x: T) => number): T[] {
  if (k <= 0) return [];
  const scored = items.map((item, i) => ({ item, i, s: key(item) }));
  scored.sort((a, b) => (b.s > a.s ? 1 : b.s < a.s ? -1 : a.i - b.i));
  return scored.slice(0, k).map((x) => x.item);
}
