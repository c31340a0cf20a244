import { describe, expect, it } from 'vitest';
import { MetricStatsDict } from './dict.js';
import { MetricStats } from './metric.js';
import { PyFloat, pyJsonDumps, pyJsonParse } from './pyjson.js';

const of = (values: number[]): MetricStats => {
  const m = new MetricStats();
  for (const v of values) m.update(v, { float: true });
  return m;
};
const dump = (m: MetricStats): string => pyJsonDumps(m.toPyJson());

describe('MetricStats', () => {
  it('Welford mean and sample variance', () => {
    const m = of([3, 7, 1, 9, 5, 2, 8, 4, 6, 10]);
    expect(m.total).toBe(55);
    expect(m.n).toBe(10);
    expect(m.mean).toBeCloseTo(5.5, 12);
    expect(m.variance).toBeCloseTo(9.166666666666666, 12);
    expect(m.standardDeviation).toBeCloseTo(Math.sqrt(9.166666666666666), 12);
    expect(of([4]).variance).toBe(0);
  });

  it('Chan merge equals one pass, operands untouched', () => {
    const a = of([1, 2, 3]);
    const b = of([4, 5, 6]);
    const c = a.plus(b);
    expect([c.total, c.n, c.mean, c.min, c.max]).toEqual([21, 6, 3.5, 1, 6]);
    expect(c.variance).toBeCloseTo(3.5, 12);
    expect(a.n).toBe(3);
    expect(new MetricStats().plus(new MetricStats()).mean).toBe(0);
  });

  it('to_dict collapses trivial stats and keeps Python number types', () => {
    expect(new MetricStats().toDict()).toBe(0);
    expect(dump(of([1]))).toBe('1.0');
    expect(dump(new MetricStats().update(3, { float: false }))).toBe('{"total": 3, "mean": 3.0}');
    expect(dump(of([10, 20, 30]))).toBe(
      '{"total": 60.0, "n": 3, "mean": 20.0, "variance": 100.0, "std_dev": 10.0, "min": 10.0, "max": 30.0}',
    );
    const counted = new MetricStats();
    for (let i = 0; i < 4; i++) counted.addScalar(1, false);
    expect(dump(counted)).toBe('{"total": 4, "unit": "task"}');
  });

  it('from_dict: scalars are one task observation; dicts fill omitted fields', () => {
    const s = MetricStats.fromDict(42);
    expect([s.total, s.n, s.mean, s.min, s.max, s.unit]).toEqual([42, 1, 42, 42, 42, 'task']);
    const back = MetricStats.fromDict(of([10, 20, 30]).toPyJson());
    expect([back.total, back.n, back.mean, back.min, back.max]).toEqual([60, 3, 20, 10, 30]);
    expect(back.variance).toBeCloseTo(100, 9);
    // no n and mean 1 → n = total (a count of ones); no mean → 1; min/max default to the mean
    const ones = MetricStats.fromDict(pyJsonParse('{"total": 2.0, "unit": "task"}'));
    expect([ones.n, ones.mean, ones.min, ones.max, ones.unit]).toEqual([2, 1, 1, 1, 'task']);
    expect(MetricStats.fromDict({ total: 5, mean: 5 }).n).toBe(1);
    expect(() => MetricStats.fromDict({ n: 3 })).toThrow(/total/);
    expect(() => MetricStats.fromDict('x')).toThrow();
  });

  it('adding a scalar is adding from_dict(scalar)', () => {
    const a = of([1.5, 2.5]).addScalar(4, false);
    const b = of([1.5, 2.5]).plus(4);
    expect(dump(a)).toBe(dump(b));
    expect(a.unit).toBe('task');
  });
});

describe('MetricStatsDict', () => {
  it('defaultdict access, sum over keys, top-k by total and by n', () => {
    const a = new MetricStatsDict();
    a.get('a').update(1);
    const b = new MetricStatsDict();
    b.get('a').update(2);
    b.get('b').update(3);
    const c = a.plus(b);
    expect(c.keys()).toEqual(['a', 'b']);
    expect(c.peek('a')?.total).toBe(3);
    const d = new MetricStatsDict();
    for (let i = 0; i < 10; i++) d.get(`key_${i}`).update(i);
    expect(d.topK(3).keys()).toEqual(['key_9', 'key_8', 'key_7']);
    d.get('key_2').update(1);
    expect(d.topKKeysByN(2)).toEqual(['key_2', 'key_0']); // ties keep insertion order, like heapq.nlargest
    expect(d.pick(['zzz']).toJson()).toBe('{"zzz": 0}');
  });
});

describe('Python JSON', () => {
  it('dumps like json.dumps and parses back with types and key order', () => {
    const text = '{"4": 1, "1": {"total": 2.0, "x": [1e-05, -Infinity, null, true]}, "\\u00e9\\n": "\\ud83d\\ude00"}';
    const v = pyJsonParse(text);
    expect(pyJsonDumps(v)).toBe(text);
    expect(pyJsonDumps(new Map([['é', new PyFloat(1e16)]]))).toBe('{"\\u00e9": 1e+16}');
    expect(() => pyJsonParse('{"a": 1,}', 'f.json')).toThrow(/f\.json/);
    expect(() => pyJsonParse('[1] 2')).toThrow(/trailing/);
  });
});
