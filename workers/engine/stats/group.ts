// BaseStats' grouping: per-document stat values summed into summary / histogram / fqdn / suffix MetricStatsDicts.
import { join } from 'node:path';
import { AssayError } from '../errors.js';
import { writeFileAtomic } from '../io/write.js';
import { cpLength, pyFloatRepr, pyRound } from '../text/python.js';
import { MetricStatsDict } from './dict.js';
import { extractDomain } from './domain.js';
import {
  DEFAULT_TOP_K_CONFIG,
  STATS_GROUPS,
  type DocStatValues,
  type PyNumber,
  type StatsDocument,
  type StatsGroup,
  type TopKConfig,
} from './types.js';

export interface StatsCollectorOptions {
  /** Groups to compute, in output order (default, or when empty: all four, as `groups or list(GROUP)`). */
  groups?: readonly StatsGroup[];
  /** Digits histogram keys are rounded to (default 3). */
  histogramRoundDigits?: number;
  topK?: TopKConfig;
}

/** One output file: `{group}/{stat}/{rank:05d}.json` and the JSON DataTrove would write there. */
export interface StatsFile {
  path: string;
  json: string;
}

/** Histogram bucket: Python `str(round(value, digits))` (`4` for an int, `4.0` / `0.188` for a float). */
export function histogramKey(v: PyNumber, digits: number): string {
  const r = pyRound(v.value, digits);
  return v.float ? pyFloatRepr(r) : String(r);
}

/** `f"{rank:05d}"`. */
export const rankName = (rank: number): string => `${String(rank).padStart(5, '0')}.json`;

export class StatsCollector {
  readonly groups: readonly StatsGroup[];
  readonly digits: number;
  readonly topK: TopKConfig;
  private readonly counters = new Map<StatsGroup, Map<string, MetricStatsDict>>();

  constructor(opts: StatsCollectorOptions = {}) {
    this.groups = opts.groups && opts.groups.length > 0 ? [...opts.groups] : STATS_GROUPS;
    this.digits = opts.histogramRoundDigits ?? 3;
    this.topK = opts.topK ?? DEFAULT_TOP_K_CONFIG;
    for (const g of this.groups) this.counters.set(g, new Map());
  }

  /** Count one document's stats (BaseStats.run's inner loop). The document is not modified. */
  add(doc: StatsDocument, stats: DocStatValues): void {
    for (const [group, counters] of this.counters) {
      const counter = (name: string): MetricStatsDict => {
        let d = counters.get(name);
        if (d === undefined) counters.set(name, (d = new MetricStatsDict()));
        return d;
      };
      if (group === 'histogram') {
        // Each bucket counts documents, and also their chars and (when known) tokens under `stat__suffix`.
        const chars = stats.size > 0 ? cpLength(doc.text) : 0;
        const tokens = doc.metadata.token_count;
        for (const [stat, value] of stats) {
          const key = histogramKey(value, this.digits);
          counter(stat).get(key).addScalar(1, false);
          counter(`${stat}__chars`).get(key).addScalar(chars, false);
          if (typeof tokens === 'number') counter(`${stat}__tokens`).get(key).addScalar(tokens);
        }
        continue;
      }
      if (stats.size === 0) continue;
      const key = group === 'summary' ? 'summary' : domainKey(doc, group);
      for (const [stat, value] of stats) counter(stat).get(key).addScalar(value.value, value.float);
    }
  }

  /** The files this rank writes, in DataTrove's order; top-k groups keep the keys with the most documents. */
  files(rank = 0): StatsFile[] {
    const out: StatsFile[] = [];
    for (const [group, counters] of this.counters) {
      const cut = this.topK.topKGroups.includes(group);
      // One key list per group, from its first stat: every stat of a group sees the same documents.
      let keys: string[] | undefined;
      for (const [stat, values] of counters) {
        let d = values;
        if (cut) {
          keys ??= values.topKKeysByN(this.topK.topK);
          d = values.pick(keys);
        }
        out.push({ path: `${group}/${stat}/${rankName(rank)}`, json: d.toJson() });
      }
    }
    return out;
  }

  /** Write `files(rank)` under `outputDir`; returns the paths written. */
  async write(outputDir: string, rank = 0): Promise<string[]> {
    const paths: string[] = [];
    for (const f of this.files(rank)) {
      const path = join(outputDir, f.path);
      await writeFileAtomic(path, f.json, { codec: 'plain' });
      paths.push(path);
    }
    return paths;
  }
}

/** fqdn / suffix of `metadata.url`, unless the document already carries `metadata.fqdn` / `metadata.suffix`. */
function domainKey(doc: StatsDocument, group: 'fqdn' | 'suffix'): string {
  const cached = doc.metadata[group];
  if (cached !== undefined && cached !== null) return String(cached);
  const url = doc.metadata.url;
  if (typeof url !== 'string') {
    const what = doc.id === undefined ? 'a document' : `document ${doc.id}`;
    throw new AssayError('PARSE', `${what} has no metadata.url, which the "${group}" stats group needs`, {
      field: 'metadata.url',
    });
  }
  return extractDomain(url)[group];
}
