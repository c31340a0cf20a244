// Reads and rewrites the numeric literal at a recipe location (a threshold dragged on a histogram).

/** 1-based line and column of the literal's first character (endColumn, when given, is only a hint). */
export interface TextLocation {
  line: number;
  column: number;
  endColumn?: number;
}

export interface NumberSpan {
  value: number;
  /** UTF-16 offsets into the whole text, end exclusive. */
  start: number;
  end: number;
  literal: string;
}

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?/;

/** Offset of the first character of a 1-based line, or -1 when the text is shorter. */
function lineStart(text: string, line: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return -1;
    off = nl + 1;
  }
  return off;
}

/**
 * The number literal starting at `loc` in the current text. The extent is re-read from the text rather
 * than taken from `endColumn`, so the location stays usable while the literal is being rewritten.
 */
export function numberAt(text: string, loc: TextLocation): NumberSpan | null {
  if (loc.line < 1 || loc.column < 1) return null;
  const ls = lineStart(text, loc.line);
  if (ls < 0) return null;
  const nl = text.indexOf('\n', ls);
  const lineText = text.slice(ls, nl < 0 ? text.length : nl);
  const rest = lineText.slice(loc.column - 1);
  const m = NUMBER.exec(rest);
  if (!m) return null;
  // A literal that continues into an identifier (`50abc`) is not a number the recipe compares with.
  const next = rest[m[0].length];
  if (next !== undefined && /[\w.]/.test(next)) return null;
  const start = ls + loc.column - 1;
  return { value: Number(m[0]), start, end: start + m[0].length, literal: m[0] };
}

/** Text with the literal at `loc` replaced by `literal`; null when no number sits there any more. */
export function rewriteNumberAt(text: string, loc: TextLocation, literal: string): string | null {
  const span = numberAt(text, loc);
  if (!span) return null;
  return text.slice(0, span.start) + literal + text.slice(span.end);
}

/** A 1-2-5 step near `range / steps`, the granularity a drag snaps to. */
export function niceStep(range: number, steps = 200): number {
  if (!(range > 0) || !Number.isFinite(range)) return 1;
  const raw = range / steps;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/** `value` snapped to `step`, written with no more decimals than the step needs (no trailing zeros, no `-0`). */
export function formatThreshold(value: number, step: number): string {
  const decimals = step >= 1 ? 0 : Math.min(12, Math.ceil(-Math.log10(step) - 1e-9));
  const snapped = Math.round(value / step) * step;
  let s = snapped.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}
