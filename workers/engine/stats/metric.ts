// DataTrove's MetricStats (Welford running stats, Chan merge, compact to_dict/from_dict) and MetricStatsDict.
import { AssayError } from '../errors.js';
import { numberOf, PyFloat, type PyDict, type PyJson } from './pyjson.js';

// Which fields hold a Python float rather than an int: only matters for how JSON prints them (`2` vs `2.0`).
const F_TOTAL = 1;
const F_N = 2;
const F_MEAN = 4;
const F_MIN = 8;
const F_MAX = 16;

export type MetricStatsJson = number | { [key: string]: number | string };

export class MetricStats {
  total = 0;
  n = 0;
  mean = 0;
  min = Infinity;
  max = -Infinity;
  /** Welford's M2 (sum of squared deviations); variance = M2 / (n - 1). */
  runningVariance = 0;
  unit = 'doc';
  /** F_* bits; the defaults mirror the dataclass (`total: 0`, `mean: 0.0`, `min: inf`, `max: -inf`). */
  floats = F_MEAN | F_MIN | F_MAX;

  /** `update(x)`: one observation, Welford's online mean and M2. */
  update(x: number, opts: { float?: boolean; unit?: string } = {}): this {
    const xf = opts.float ?? !Number.isInteger(x);
    if (opts.unit) this.unit = opts.unit;
    this.total += x;
    if (xf) this.floats |= F_TOTAL;
    this.n += 1;
    // Python's min()/max() keep the first argument on ties, so the stored type only changes on a strict win.
    if (x < this.min) this.setMin(x, xf);
    if (x > this.max) this.setMax(x, xf);
    const delta = x - this.mean;
    this.mean += delta / this.n;
    this.floats |= F_MEAN;
    if (this.n > 1) this.runningVariance += delta * (x - this.mean);
    return this;
  }

  get variance(): number {
    return this.n > 1 ? this.runningVariance / (this.n - 1) : 0;
  }

  get standardDeviation(): number {
    return Math.sqrt(this.variance);
  }

  /** `a + b`: Chan et al.'s parallel combination; returns a new object like Python's `__add__`. */
  plus(other: MetricStats | PyJson): MetricStats {
    return this.clone().addInPlace(other instanceof MetricStats ? other : MetricStats.fromDict(other));
  }

  /** `a += b` without the copy (the merge loops add thousands of entries). */
  addInPlace(o: MetricStats): this {
    const n = this.n + o.n;
    let mean = 0;
    let m2 = 0;
    if (n > 0) {
      mean = (this.n * this.mean + o.n * o.mean) / n;
      const delta = this.mean - o.mean;
      m2 = this.runningVariance + o.runningVariance + (delta * delta * this.n * o.n) / n;
    }
    const floats = (this.floats | o.floats) & (F_TOTAL | F_N);
    this.total += o.total;
    this.n = n;
    this.floats = (this.floats & (F_MIN | F_MAX)) | floats | F_MEAN;
    if (o.max > this.max) this.setMax(o.max, (o.floats & F_MAX) !== 0);
    if (o.min < this.min) this.setMin(o.min, (o.floats & F_MIN) !== 0);
    this.mean = mean;
    this.runningVariance = m2;
    this.unit = this.unit !== 'doc' ? this.unit : o.unit;
    return this;
  }

  /** `self += scalar`, i.e. `self + MetricStats.from_dict(scalar)`, without allocating. */
  addScalar(v: number, float = !Number.isInteger(v)): this {
    // addInPlace with other = (total=min=max=mean=v, n=1, M2=0, unit="task"), same float operations.
    const n0 = this.n;
    const n = n0 + 1;
    const delta = this.mean - v;
    this.runningVariance = this.runningVariance + 0 + (delta * delta * n0 * 1) / n;
    this.mean = (n0 * this.mean + 1 * v) / n;
    this.n = n;
    this.total += v;
    this.floats |= F_MEAN | (float ? F_TOTAL : 0);
    if (v > this.max) this.setMax(v, float);
    if (v < this.min) this.setMin(v, float);
    if (this.unit === 'doc') this.unit = 'task';
    return this;
  }

  clone(): MetricStats {
    return Object.assign(new MetricStats(), this);
  }

  /** `to_dict()` as a Python-typed JSON tree (PyFloat marks floats) for `pyJsonDumps`. */
  toPyJson(): PyJson {
    if (this.total === 0) return 0;
    const num = (v: number, bit: number): PyJson => ((this.floats & bit) !== 0 ? new PyFloat(v) : v);
    const total = num(this.total, F_TOTAL);
    const data: PyDict = new Map([['total', total]]);
    // n only when it says something: more than one observation and not simply a count of 1s.
    if (this.n > 1 && this.n !== this.total) data.set('n', num(this.n, F_N));
    if (this.mean !== 1) data.set('mean', num(this.mean, F_MEAN));
    if (this.mean !== this.max || this.mean !== this.min) {
      data.set('mean', num(this.mean, F_MEAN));
      data.set('variance', new PyFloat(this.variance));
      data.set('std_dev', new PyFloat(this.standardDeviation));
      data.set('min', num(this.min, F_MIN));
      data.set('max', num(this.max, F_MAX));
    }
    if (this.unit !== 'doc') data.set('unit', this.unit);
    return data.size === 1 ? total : data;
  }

  /** `to_dict()` with plain numbers. */
  toDict(): MetricStatsJson {
    return plain(this.toPyJson()) as MetricStatsJson;
  }

  /** `MetricStats.from_dict`: a scalar is one observation with unit "task"; a dict fills the omitted fields. */
  static fromDict(data: PyJson): MetricStats {
    const m = new MetricStats();
    if (typeof data === 'number' || data instanceof PyFloat) {
      const v = numberOf(data);
      const bits = data instanceof PyFloat ? F_TOTAL | F_MEAN | F_MIN | F_MAX : 0;
      Object.assign(m, { total: v, min: v, max: v, mean: v, n: 1, unit: 'task', floats: bits });
      return m;
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new AssayError('PARSE', `a MetricStats entry must be a number or an object, got ${JSON.stringify(data)}`);
    }
    const get = (k: string): PyJson | undefined => (data instanceof Map ? data.get(k) : data[k]);
    const field = (k: string): number | PyFloat | undefined => {
      const v = get(k);
      if (v === undefined) return undefined;
      if (typeof v === 'number' || v instanceof PyFloat) return v;
      throw new AssayError('PARSE', `MetricStats field "${k}" must be a number`, { field: k });
    };
    const total = field('total');
    if (total === undefined) throw new AssayError('PARSE', 'a MetricStats object needs "total"', { field: 'total' });
    const mean = field('mean') ?? 1;
    const n = field('n') ?? (numberOf(mean) === 1 ? total : 1);
    const min = field('min') ?? mean;
    const max = field('max') ?? mean;
    const isF = (v: number | PyFloat, bit: number): number => (v instanceof PyFloat ? bit : 0);
    m.total = numberOf(total);
    m.n = numberOf(n);
    m.mean = numberOf(mean);
    m.min = numberOf(min);
    m.max = numberOf(max);
    m.runningVariance = numberOf(field('variance') ?? 0) * (m.n - 1);
    const unit = get('unit');
    m.unit = typeof unit === 'string' ? unit : 'doc';
    m.floats = isF(total, F_TOTAL) | isF(n, F_N) | isF(mean, F_MEAN) | isF(min, F_MIN) | isF(max, F_MAX);
    return m;
  }

  private setMin(v: number, float: boolean): void {
    this.min = v;
    this.floats = float ? this.floats | F_MIN : this.floats & ~F_MIN;
  }

  private setMax(v: number, float: boolean): void {
    this.max = v;
    this.floats = float ? this.floats | F_MAX : this.floats & ~F_MAX;
  }
}

/** A PyJson tree with floats unwrapped to numbers and Maps turned into plain objects. */
export function plain(v: PyJson): unknown {
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}
