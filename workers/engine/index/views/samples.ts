// Pages of document ids in a preview bucket: what one rule drops alone / exclusively / in order, or what is kept.
import type { SampleBucket } from '../../../../shared/contract/preview.js';
import { AssayError } from '../../errors.js';
import type { StreamAnalysis } from '../preview/analyze.js';
import { Bitset } from '../preview/bitset.js';
import type { IndexData } from '../store/data.js';
import type { DB } from '../store/db.js';
import { idsOf } from './ids.js';

export function bucketOf(streams: readonly StreamAnalysis[], rule: number, bucket: SampleBucket, n: number): Bitset {
  if (rule === -1) {
    if (bucket !== 'kept') throw new AssayError('CONFIG', `rule -1 means the kept documents; bucket must be 'kept', not '${bucket}'`, { field: 'bucket' });
    return streams.map((s) => s.kept).reduce((a, b) => a.or(b), new Bitset(n));
  }
  const a = streams.find((s) => s.rules.some((r) => r.index === rule));
  if (a === undefined) throw new AssayError('CONFIG', `the recipe has no rule ${rule}`, { field: 'rule' });
  if (bucket === 'kept') return a.kept;
  const empty = new Bitset(n);
  if (bucket === 'alone') return a.alone.get(rule) ?? empty;
  if (bucket === 'sequential') return a.sequential.get(rule) ?? empty;
  const drop = a.drops.get(rule);
  if (drop === undefined) return empty;
  let others = new Bitset(n);
  for (const d of new Set(a.drops.values())) if (d !== drop) others = others.or(d);
  return drop.andNot(others);
}

export function samples(db: DB, data: IndexData, streams: readonly StreamAnalysis[], rule: number, bucket: SampleBucket, offset: number, limit: number): { ids: string[]; total: number; bucket: SampleBucket } {
  const set = bucketOf(streams, rule, bucket, data.n);
  return { ids: idsOf(db, data, set.slice(offset, limit)), total: set.count(), bucket };
}
