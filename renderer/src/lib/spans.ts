// Splits a document's text at span boundaries so overlapping attribute spans can be highlighted together.
import type { DocumentSpan } from '../../../shared/contract/index.js';

export interface Segment {
  start: number;
  end: number;
  /** Spans covering the whole segment, in input order. */
  spans: DocumentSpan[];
}

/** Contiguous segments covering [0, length); spans are clamped to the text and empty ones ignored. */
export function segmentText(length: number, spans: readonly DocumentSpan[]): Segment[] {
  const live = spans
    .map((s, i) => ({ s, i, start: Math.max(0, Math.min(length, s.start)), end: Math.max(0, Math.min(length, s.end)) }))
    .filter((x) => x.end > x.start);
  const points = [...new Set<number>([0, length, ...live.flatMap((x) => [x.start, x.end])])].sort((a, b) => a - b);
  const byStart = [...live].sort((a, b) => a.start - b.start);
  let next = 0;
  let active: typeof live = [];
  const out: Segment[] = [];
  for (let k = 0; k + 1 < points.length; k++) {
    const start = points[k] as number;
    // Every span end is a cut point, so a span still active at `start` covers the whole segment.
    active = active.filter((x) => x.end > start);
    let entered = false;
    for (; next < byStart.length && (byStart[next] as (typeof live)[number]).start <= start; next++) {
      active.push(byStart[next] as (typeof live)[number]);
      entered = true;
    }
    if (entered) active.sort((a, b) => a.i - b.i);
    out.push({ start, end: points[k + 1] as number, spans: active.map((x) => x.s) });
  }
  return out;
}

/** A stable colour per attribute set, in the order the sets are listed. */
export const SET_COLOURS = ['#f4b400', '#4f8cff', '#e8575a', '#34a853', '#a05bd5', '#ff8f3d', '#19a7a7', '#c2185b'];

export function setColour(sets: readonly string[], set: string): string {
  const i = sets.indexOf(set);
  return SET_COLOURS[(i < 0 ? 0 : i) % SET_COLOURS.length] as string;
}

/** Spans of one attribute set, split by reach: span-level ones mark parts of the text, document-wide ones all of it. */
export interface SpanGroup {
  /** `span:<set>` or `doc:<set>`: the key of the group's on/off choice. */
  id: string;
  set: string;
  docWide: boolean;
  keys: string[];
  spans: number;
}

/** Whether ranges [start, end) jointly reach over the whole text: what lies outside them is whitespace only. */
export function coversText(text: string, ranges: readonly { start: number; end: number }[]): boolean {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let at = 0;
  for (const r of sorted) {
    if (r.start > at && text.slice(at, r.start).trim() !== '') return false;
    at = Math.max(at, r.end);
  }
  return text.slice(at).trim() === '';
}

/**
 * Groups a document's spans per set and reach. A key is document-wide when its spans cover the whole text, one
 * span or several together (a document score, per-paragraph lengths): painted, they would colour all of the text
 * and hide the spans that mark something (PII, duplicates). Decided per document, from its spans.
 */
export function spanGroups(text: string, spans: readonly DocumentSpan[]): SpanGroup[] {
  const keyOf = (s: DocumentSpan): string => `${s.set}\u0000${s.key}`;
  const byKey = new Map<string, DocumentSpan[]>();
  for (const s of spans) {
    const list = byKey.get(keyOf(s));
    if (list) list.push(s);
    else byKey.set(keyOf(s), [s]);
  }
  const wide = new Map([...byKey].map(([k, list]) => [k, coversText(text, list)]));
  const groups = new Map<string, SpanGroup>();
  for (const s of spans) {
    const docWide = wide.get(keyOf(s)) === true;
    const id = `${docWide ? 'doc' : 'span'}:${s.set}`;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { id, set: s.set, docWide, keys: [], spans: 0 }));
    if (!g.keys.includes(s.key)) g.keys.push(s.key);
    g.spans++;
  }
  // Span-level groups first (they are what the inspector is for), each part by set name.
  return [...groups.values()].sort((a, b) => Number(a.docWide) - Number(b.docWide) || a.set.localeCompare(b.set));
}

/** A group's state: the user's choice when they made one, else on for span-level and off for document-wide. */
export const groupShown = (choices: Readonly<Record<string, boolean>>, g: Pick<SpanGroup, 'id' | 'docWide'>): boolean => choices[g.id] ?? !g.docWide;

/** The spans to paint: those of the groups that are on. */
export function shownSpans(text: string, spans: readonly DocumentSpan[], choices: Readonly<Record<string, boolean>>): DocumentSpan[] {
  const on = new Set(spanGroups(text, spans).filter((g) => groupShown(choices, g)).flatMap((g) => g.keys.map((k) => `${g.set}\u0000${k}`)));
  return spans.filter((s) => on.has(`${s.set}\u0000${s.key}`));
}

/** A piece of text for the inspector: the spans over it and whether a search match covers it. */
export interface MarkedSegment extends Segment {
  match: boolean;
}

const MATCH_SET = '\u0000search';

/** Segments cut at span and search-match boundaries; matches are not listed among a segment's spans. */
export function markSegments(length: number, spans: readonly DocumentSpan[], matches: readonly { start: number; end: number }[] = []): MarkedSegment[] {
  const pseudo = matches.map((m) => ({ set: MATCH_SET, key: '', start: m.start, end: m.end, score: 1 }));
  return segmentText(length, [...spans, ...pseudo]).map((seg) => {
    const own = seg.spans.filter((s) => s.set !== MATCH_SET);
    return { start: seg.start, end: seg.end, spans: own, match: own.length !== seg.spans.length };
  });
}
