// Shareable view state in the URL hash: recipe path, selected document, document-table filters and search, sort, columns and comparison.
import type { DiffGroupKey, Fate, FateChange, SampleBucket } from '../../../shared/contract/index.js';
import { decodeGroup, decodeTarget, encodeGroup, encodeTarget, FATE_CHANGES, type CompareTarget } from './compare.js';

export interface RangeFilter {
  key: string;
  min?: number;
  max?: number;
}

/** A fate, or `redacted`: kept documents whose text span replacement changed. */
export type FateFilter = Fate | 'redacted';

/** One preview bucket of one rule (rule -1 with `kept`: every kept document). */
export interface BucketFilter {
  rule: number;
  bucket: SampleBucket;
}

export interface DocFilter {
  fate?: FateFilter;
  /** With fate `dropped`: only documents the rule with this index dropped (sequentially). */
  droppedBy?: number;
  /** With fate `redacted`: only documents this span_replacement rule changed. */
  redactedBy?: number;
  /** Only the documents of a preview bucket; never set together with a fate. */
  bucket?: BucketFilter;
  source?: string;
  ranges: RangeFilter[];
  /** Full-text search over the indexed texts, as typed (the query sends it trimmed); combines with every other filter. */
  search?: string;
  /** While comparing: only documents whose fate changed (any way, or one way); never set together with `group`. */
  change?: FateChange | 'any';
  /** While comparing: only the documents of one diff group. */
  group?: DiffGroupKey;
}

export interface SortState {
  column: string;
  desc: boolean;
}

export interface UrlState {
  recipe?: string;
  doc?: string;
  filter: DocFilter;
  sort?: SortState;
  columns?: string[];
  /** What the recipe is compared with (`cmp=saved|recipe:PATH|run:FOLDER`). */
  compare?: CompareTarget;
}

const FATES: readonly FateFilter[] = ['kept', 'redacted', 'dropped', 'outside'];
const BUCKETS: readonly SampleBucket[] = ['alone', 'exclusive', 'sequential', 'kept'];

const numOrEmpty = (n: number | undefined): string => (n === undefined ? '' : String(n));

function parseNum(s: string | undefined): number | undefined | null {
  if (s === undefined || s === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** The hash fragment (without `#`). The token stays in the query string, which this never touches. */
export function encodeUrlState(s: UrlState): string {
  const p = new URLSearchParams();
  if (s.recipe) p.set('recipe', s.recipe);
  if (s.doc) p.set('doc', s.doc);
  if (s.filter.fate) p.set('fate', s.filter.fate);
  // `rule` is the dropping rule under fate=dropped and the redacting one under fate=redacted.
  const rule = s.filter.fate === 'redacted' ? s.filter.redactedBy : s.filter.droppedBy;
  if (rule !== undefined) p.set('rule', String(rule));
  if (s.filter.bucket) p.set('bucket', `${s.filter.bucket.bucket}:${s.filter.bucket.rule}`);
  if (s.filter.source !== undefined) p.set('source', s.filter.source);
  // `min|max|key`: numbers first, so a key containing `|` still round-trips.
  if (s.filter.search !== undefined && s.filter.search.trim() !== '') p.set('q', s.filter.search);
  for (const r of s.filter.ranges) p.append('range', `${numOrEmpty(r.min)}|${numOrEmpty(r.max)}|${r.key}`);
  if (s.sort) p.set('sort', `${s.sort.desc ? '-' : ''}${s.sort.column}`);
  if (s.columns && s.columns.length > 0) p.set('cols', s.columns.join(','));
  if (s.compare) p.set('cmp', encodeTarget(s.compare));
  if (s.filter.change) p.set('chg', s.filter.change);
  if (s.filter.group) p.set('grp', encodeGroup(s.filter.group));
  return p.toString();
}

/** Parses a hash (with or without `#`); anything malformed is dropped rather than trusted. */
export function decodeUrlState(hash: string): UrlState {
  const p = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const out: UrlState = { filter: { ranges: [] } };
  const recipe = p.get('recipe');
  if (recipe) out.recipe = recipe;
  const doc = p.get('doc');
  if (doc) out.doc = doc;
  const fate = p.get('fate');
  if (fate && (FATES as readonly string[]).includes(fate)) out.filter.fate = fate as FateFilter;
  const rule = parseNum(p.get('rule') ?? undefined);
  if (typeof rule === 'number' && Number.isInteger(rule) && rule >= 0) out.filter[out.filter.fate === 'redacted' ? 'redactedBy' : 'droppedBy'] = rule;
  const bucket = decodeBucket(p.get('bucket'));
  if (bucket) out.filter.bucket = bucket;
  const source = p.get('source');
  if (source !== null) out.filter.source = source;
  const q = p.get('q');
  if (q !== null && q.trim() !== '') out.filter.search = q;
  for (const r of p.getAll('range')) {
    const parts = r.split('|');
    if (parts.length < 3) continue;
    const min = parseNum(parts[0]);
    const max = parseNum(parts[1]);
    const key = parts.slice(2).join('|');
    if (!key || min === null || max === null) continue;
    const range: RangeFilter = { key };
    if (min !== undefined) range.min = min;
    if (max !== undefined) range.max = max;
    out.filter.ranges.push(range);
  }
  const sort = p.get('sort');
  if (sort && sort !== '-') out.sort = sort.startsWith('-') ? { column: sort.slice(1), desc: true } : { column: sort, desc: false };
  const cols = p.get('cols');
  if (cols) out.columns = cols.split(',').filter((c) => c !== '');
  const compare = decodeTarget(p.get('cmp'));
  if (compare) out.compare = compare;
  const chg = p.get('chg');
  if (chg === 'any' || FATE_CHANGES.includes(chg as FateChange)) out.filter.change = chg as FateChange | 'any';
  const group = decodeGroup(p.get('grp'));
  if (group) out.filter.group = group;
  return out;
}

/** `bucket:rule`, e.g. `alone:3` or `kept:-1`; rule -1 (all kept documents) goes only with `kept`. */
function decodeBucket(v: string | null): BucketFilter | undefined {
  if (!v) return undefined;
  const at = v.lastIndexOf(':');
  const bucket = v.slice(0, at);
  const rule = parseNum(v.slice(at + 1));
  if (at < 0 || !(BUCKETS as readonly string[]).includes(bucket) || typeof rule !== 'number' || !Number.isInteger(rule) || rule < -1) return undefined;
  if (rule === -1 && bucket !== 'kept') return undefined;
  return { rule, bucket: bucket as SampleBucket };
}
