// The sub-rules behind a DataTrove verdict flag (`<prefix>__kept`): value and `_fail` keys, comparators and thresholds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleVerdict, SubRule } from '../../../../shared/contract/preview.js';
import type { Json } from '../../mix/filters/types.js';
import { BUILTIN_FAMILIES } from '../../tag/registry.js';
import { markerPath } from '../../io/markers.js';
import type { EvalContext } from '../recipe/context.js';
import type { VCol } from '../recipe/vcol.js';
import type { IndexData } from '../store/data.js';
import { DOC_SET, T } from '../store/tags.js';
import { SUB_RULES, type SubRuleDef } from './subrule-table.js';

export type Because = NonNullable<RuleVerdict['because']>[number];

interface Resolved extends SubRule {
  /** Where the threshold came from: the options recorded when the tagger ran, or the tagger's defaults. */
  origin: 'recorded' | 'default';
  flag: boolean;
}

const specs = new Map(BUILTIN_FAMILIES.flatMap((f) => f.taggers.map((t) => [t.name, t] as const)));

/** Compact numbers for sentences: three significant digits, more when that would make value and threshold look equal. */
export function fmt(x: number, other?: number): string {
  if (Number.isInteger(x)) return String(x);
  const short = String(Number(x.toPrecision(3)));
  return other !== undefined && short === String(Number(other.toPrecision(3))) ? String(Number(x.toPrecision(8))) : short;
}

const holds = (v: number, op: string, t: number): boolean =>
  op === '<' ? v < t : op === '<=' ? v <= t : op === '>' ? v > t : op === '>=' ? v >= t : op === '==' ? v === t : v !== t;

/** The sub-rules of flag keys in one index, resolved once per key (markers are read lazily, once per attribute set). */
export class SubRules {
  private readonly byFlag = new Map<string, Resolved[] | null>();
  private readonly recorded = new Map<string, { prefix: string; name: string; options: unknown }[] | null>();

  constructor(
    private readonly root: string,
    private readonly data: IndexData,
    /** The app's confinement: a marker a symbolic link takes outside the workspace is not read (defaults apply). */
    private readonly check?: (path: string, field: string) => void,
  ) {}

  /** Options of the tagger that wrote `prefix` in `set`, as its completion marker recorded them (Assay's tag runtime writes them). */
  private optionsFrom(set: string, prefix: string): unknown {
    let list = this.recorded.get(set);
    if (list === undefined) {
      list = null;
      for (const f of this.data.files) {
        const a = f.sets.get(set);
        if (a === undefined) continue;
        try {
          const marker = markerPath(join(this.root, a.path));
          this.check?.(marker, 'attributes');
          const m = JSON.parse(readFileSync(marker, 'utf8')) as { taggers?: unknown };
          if (Array.isArray(m.taggers)) list = m.taggers as { prefix: string; name: string; options: unknown }[];
        } catch {
          /* no marker (Dolma wrote it, or an older Assay): defaults */
        }
        break;
      }
      this.recorded.set(set, list);
    }
    return list?.find((t) => t.prefix === prefix)?.options;
  }

  /** The sub-rules behind `flagKey` when it is a known filter's `kept` flag (else null). */
  of(flagKey: string): Resolved[] | null {
    const hit = this.byFlag.get(flagKey);
    if (hit !== undefined) return hit;
    const out = this.resolve(flagKey);
    this.byFlag.set(flagKey, out);
    return out;
  }

  private resolve(flagKey: string): Resolved[] | null {
    const m = /^(.+)__kept$/.exec(flagKey);
    if (m === null) return null;
    const prefix = m[1] as string;
    const tagger = prefix.split('__').at(-1) as string;
    const table = SUB_RULES[tagger];
    const spec = specs.get(tagger);
    if ((table === undefined && tagger !== 'language_filter') || spec === undefined) return null;
    const entry = this.data.keys.find((k) => k.set !== DOC_SET && k.path.length === 1 && k.path[0] === flagKey && k.present > 0);
    const recorded = entry ? this.optionsFrom(entry.set, prefix) : undefined;
    let options: Record<string, unknown>;
    let origin: Resolved['origin'] = 'recorded';
    const parsed = spec.options?.safeParse(recorded ?? {});
    if (recorded === undefined || !parsed?.success) {
      origin = 'default';
      const d = spec.options?.safeParse({});
      options = d?.success ? (d.data as Record<string, unknown>) : {};
    } else options = parsed.data as Record<string, unknown>;
    const defs: SubRuleDef[] = table ? table(options) : languageRules(options, prefix, this.data);
    const present = new Set(this.data.keys.filter((k) => k.present > 0 && k.path.length === 1).map((k) => k.path[0] as string));
    const rules: Resolved[] = [];
    for (const d of defs) {
      const key = `${prefix}__${d.rule}`;
      const failKey = tagger === 'language_filter' ? undefined : `${key}_fail`;
      if (!present.has(key) && (failKey === undefined || !present.has(failKey))) continue;
      const flag = d.op === undefined;
      const t = d.threshold ?? undefined;
      rules.push({
        key,
        ...(failKey !== undefined ? { failKey } : {}),
        label: !flag && t !== undefined && origin === 'default' ? `${d.label} (default threshold)` : d.label,
        ...(d.op !== undefined ? { op: d.op } : {}),
        ...(t !== undefined ? { threshold: t } : {}),
        origin,
        flag,
      });
    }
    return rules.length > 0 ? rules : null;
  }

  /** The sub-rules of every flag key a rule reads, for `PreviewRule.subRules`. */
  forKeys(keys: readonly string[]): SubRule[] | undefined {
    const out = keys.flatMap((k) => this.of(k) ?? []).map(({ origin: _o, flag: _f, ...s }) => s);
    return out.length > 0 ? out : undefined;
  }

  /** The failing sub-rules of one document, given how to read a key's document-level value. */
  failing(keys: readonly string[], value: (key: string) => number | null): Because[] {
    const out: Because[] = [];
    for (const k of keys) {
      const subs = this.of(k);
      // Only a filter that dropped the document (kept = 0) has failing sub-rules to name.
      if (subs === null || value(k) !== 0) continue;
      for (const s of subs) {
        const v = value(s.key);
        const failed = s.failKey !== undefined ? value(s.failKey) === 1 : v !== null && s.op !== undefined && s.threshold !== undefined && holds(v, s.op, s.threshold);
        if (!failed) continue;
        const dflt = s.origin === 'default' && s.threshold !== undefined ? ' (default)' : '';
        const base = s.label.replace(/ \(default threshold\)$/, '');
        const text =
          s.flag ? base
          : v === null ? `${base}: no value`
          : s.op !== undefined && s.threshold !== undefined ? `${base} ${fmt(v, s.threshold)} ${s.op} ${fmt(s.threshold, v)}${dflt}`
          : `${base} ${fmt(v)}`;
        out.push({ key: s.key, label: s.label, value: v, ...(s.op !== undefined ? { op: s.op } : {}), ...(s.threshold !== undefined ? { threshold: s.threshold } : {}), text });
      }
    }
    return out;
  }
}

/** LanguageFilter writes no `_fail` flags: a document fails when the requested languages all score at or below the threshold. */
function languageRules(o: Record<string, unknown>, prefix: string, data: IndexData): SubRuleDef[] {
  const t = typeof o.language_threshold === 'number' ? o.language_threshold : null;
  const langs = Array.isArray(o.languages) ? (o.languages as string[]) : null;
  if (langs !== null) return langs.map((l) => ({ rule: l, label: `${l} language score`, op: '<=', threshold: t }));
  // No languages requested: the top language's score decides.
  const top = data.keys.filter((k) => k.path.length === 1 && (k.path[0] as string).startsWith(`${prefix}__language_`)).map((k) => (k.path[0] as string).slice(prefix.length + 2));
  return [...new Set(top)].map((r) => ({ rule: r, label: `${r.replace(/^language_/, '')} language score`, op: '<=', threshold: t }));
}

/** A key's document-level value in a merged document as the mixer sees it: the first span's score, or a number. */
export function docValue(doc: Json, key: string): number | null {
  const attrs = (doc as { attributes?: unknown } | null)?.attributes;
  if (attrs === null || typeof attrs !== 'object') return null;
  const v = (attrs as Record<string, unknown>)[key];
  if (typeof v === 'number') return v;
  if (Array.isArray(v) && Array.isArray(v[0]) && typeof v[0][2] === 'number') return v[0][2] as number;
  return null;
}

/** The same from the index's columns (for table rows: no attribute file is read), merged as the stream merges its sets. */
export function columnValue(ctx: EvalContext, key: string, g: number): number | null {
  // One lookup per key and stream, not per row: an export asks for millions of rows.
  let byKey = merged.get(ctx);
  if (byKey === undefined) merged.set(ctx, (byKey = new Map()));
  let v = byKey.get(key);
  if (v === undefined) byKey.set(key, (v = ctx.node({ kind: 'attr', path: [key] })));
  const t = v.tag[g];
  return t === T.NUM || t === T.SPANS ? (v.num[g] as number) : null;
}

const merged = new WeakMap<EvalContext, Map<string, VCol>>();
const registry = new WeakMap<IndexData, SubRules>();

/** One catalogue of sub-rules per loaded index (a reload brings new data, hence a new one); the engine creates it with its path check. */
export function subRulesOf(root: string, data: IndexData, check?: (path: string, field: string) => void): SubRules {
  let s = registry.get(data);
  if (s === undefined) registry.set(data, (s = new SubRules(root, data, check)));
  return s;
}
