// Virtual scrolling for fixed-height rows, with the content height capped so 10^6+ rows stay within browser limits.

export interface VirtualInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  total: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan: number;
  /** Tallest scroll content to create; beyond it scroll positions map proportionally onto rows. */
  maxContentPx?: number;
}

export interface VirtualWindow {
  /** Rows [start, end] to render (end < start when there are none). */
  start: number;
  end: number;
  /** Offset of row `start` from the top of the scroll content (px). */
  top: number;
  contentHeight: number;
}

export function virtualWindow(v: VirtualInput): VirtualWindow {
  const maxPx = v.maxContentPx ?? 10_000_000;
  const realHeight = v.total * v.rowHeight;
  const contentHeight = Math.min(realHeight, maxPx);
  // Past the cap, one content pixel stands for `ratio` real pixels (only the scroll position is scaled; rows keep their height).
  const realScroll = Math.max(0, realHeight - v.viewportHeight);
  const contentScroll = Math.max(0, contentHeight - v.viewportHeight);
  const ratio = contentScroll > 0 ? realScroll / contentScroll : 1;
  const scrollTop = Math.min(Math.max(0, v.scrollTop), contentScroll);
  const realTop = scrollTop * ratio;
  const first = Math.min(Math.floor(realTop / v.rowHeight), Math.max(0, v.total - 1));
  const firstTop = scrollTop - (realTop - first * v.rowHeight);
  const start = Math.max(0, first - v.overscan);
  const end = Math.min(v.total - 1, first + Math.ceil(v.viewportHeight / v.rowHeight) + v.overscan);
  return { start, end, top: firstTop - (first - start) * v.rowHeight, contentHeight };
}
