// Decon attributes as the app finds them: the decon names in the catalogue, and a document's hits per decon name.
import type { AttributeKeyInfo, DocumentDetail } from '../../../shared/contract/index.js';

/** A decon attribute set: keys `<name>__decon__*` in `attributes/<set>/`. */
export interface DeconTarget {
  name: string;
  set: string;
}

const DECON = /^(.+)__decon__(ngrams|overlap|items)$/;

/** Every decon name in the catalogue (from its `__decon__ngrams`, `__decon__overlap` or `__decon__items` keys), by set then name. */
export function deconTargets(attributes: readonly AttributeKeyInfo[]): DeconTarget[] {
  const seen = new Map<string, DeconTarget>();
  for (const a of attributes) {
    const m = DECON.exec(a.key);
    if (m) seen.set(`${a.set}\u0000${m[1]}`, { name: m[1] as string, set: a.set });
  }
  return [...seen.values()].sort((a, b) => a.set.localeCompare(b.set) || a.name.localeCompare(b.name));
}

/** Per decon name with overlap spans in the document: its set and the `"<set>:<item_id>"` hits from `<name>__decon__hits`. */
export function documentHits(detail: Pick<DocumentDetail, 'spans' | 'values'>): { name: string; set: string; refs: string[] }[] {
  const out = new Map<string, { name: string; set: string; refs: string[] }>();
  for (const s of detail.spans) {
    if (!s.key.endsWith('__decon__overlap')) continue;
    const name = s.key.slice(0, -'__decon__overlap'.length);
    if (out.has(`${s.set}\u0000${name}`)) continue;
    const v = detail.values[`${name}__decon__hits`];
    const refs = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    out.set(`${s.set}\u0000${name}`, { name, set: s.set, refs });
  }
  return [...out.values()];
}

/** `0.5` → `50.0 %`; null (the eval set's size is unknown) → `?`. */
export const fmtFraction = (f: number | null): string => (f === null ? '?' : `${(f * 100).toFixed(f > 0 && f < 0.001 ? 3 : 1)} %`);

/** Lower-cased letter/digit words, accents dropped: close enough to the decon normalization to pair a span with its item. */
export function plainWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const grams = (w: readonly string[], k: number): string[] => Array.from({ length: Math.max(0, w.length - k + 1) }, (_, i) => w.slice(i, i + k).join(' '));

/**
 * Which of a document's hit items an overlap span stands for: those sharing a run of `k` words with the span's text
 * (fewer when the span is shorter). The attributes name the items per document, not per span, so this pairs them for
 * display only; `exact` is false when no item shares such a run and every hit is offered instead.
 */
export function spanItems<T extends { ref: string; text: string | null }>(spanText: string, items: readonly T[], k = 8): { items: T[]; exact: boolean } {
  const sw = plainWords(spanText);
  const n = Math.min(k, sw.length);
  if (n === 0) return { items: [...items], exact: false };
  const mine = new Set(grams(sw, n));
  const hit = items.filter((it) => it.text !== null && grams(plainWords(it.text), n).some((g) => mine.has(g)));
  return hit.length > 0 ? { items: hit, exact: true } : { items: [...items], exact: false };
}
