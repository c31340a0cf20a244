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
