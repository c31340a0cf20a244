// Dolma's span replacement: one left-to-right pass over code points, with its overlap rules (spec §2.3).

export interface Replacement {
  /** Code-point offsets into the text, end exclusive. */
  start: number;
  end: number;
  /** Literal text; every `{}` is replaced by the original span text. Empty = delete. */
  replacement: string;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Apply replacements exactly as Dolma's mixer does (src/shard.rs), including its quirks:
 * spans are stable-sorted by start; a span starting inside an earlier one is dropped whole;
 * ends past the text clamp; a zero-length span both emits its replacement and eats one character.
 * Returns the new text; `applied` receives each emitted span's code-point range when given.
 */
export function applyReplacements(
  text: string,
  input: readonly Replacement[],
  applied?: (start: number, end: number, r: Replacement) => void,
): string {
  if (input.length === 0) return text;
  const spans = input.length === 1 ? input : [...input].sort((a, b) => a.start - b.start); // Array#sort is stable
  // Offsets are code points; map them to UTF-16 units only when the text needs it.
  const w = new Rewrite(text, SURROGATE.test(text) ? codePointOffsets(text) : null, applied);
  const length = w.length;
  let k = 0;
  let spanStart = 0;
  for (let i = 0; i < length; i++) {
    if (k >= spans.length) {
      // Past the last span every character is copied: one run to the end.
      if (w.runStart < 0) w.runStart = i;
      break;
    }
    const cur = spans[k] as Replacement;
    const inside = i >= cur.start && i < cur.end;
    if (i !== cur.start && i !== cur.end) {
      // Between the current span's boundaries every character is treated alike (skipped inside it, copied
      // outside it), so the walk jumps to the next boundary instead of visiting each character.
      if (inside) w.flush(i);
      else if (w.runStart < 0) w.runStart = i;
      const next = cur.start > i ? (cur.end > i ? Math.min(cur.start, cur.end) : cur.start) : cur.end > i ? cur.end : length;
      i = Math.min(Math.ceil(next), length) - 1;
      continue;
    }
    if (i === cur.start) spanStart = i;
    if (inside) {
      w.flush(i);
      continue;
    }
    if (i === cur.end) {
      w.flush(i);
      w.emit(cur, spanStart, i);
      while (k < spans.length && (spans[k] as Replacement).start < i) k++;
    }
    if (k < spans.length && (spans[k] as Replacement).start === i) {
      w.flush(i);
      spanStart = i;
    } else if (w.runStart < 0) {
      w.runStart = i;
    }
  }
  w.flush(length);
  if (k < spans.length) w.emit(spans[k] as Replacement, spanStart, length);
  return w.out;
}

/** applyReplacements' output as it grows; methods rather than closures made per call (one object per text instead). */
class Rewrite {
  out = '';
  /** Start (code point) of a pending run of copied characters, -1 when none. */
  runStart = -1;
  readonly length: number;

  constructor(
    private readonly text: string,
    private readonly units: Uint32Array | null,
    private readonly applied: ((start: number, end: number, r: Replacement) => void) | undefined,
  ) {
    this.length = units ? units.length - 1 : text.length;
  }

  /** UTF-16 offset of code point `cp` (clamped to the text). */
  private unit(cp: number): number {
    return this.units ? (this.units[Math.min(cp, this.length)] ?? this.text.length) : Math.min(cp, this.length);
  }

  /** Copies the pending run up to code point `i`. */
  flush(i: number): void {
    if (this.runStart >= 0) {
      this.out += this.text.slice(this.unit(this.runStart), this.unit(i));
      this.runStart = -1;
    }
  }

  /** Writes `r` in place of code points [from, to). */
  emit(r: Replacement, from: number, to: number): void {
    const rep = r.replacement;
    if (rep !== '') this.out += rep.includes('{}') ? rep.split('{}').join(this.text.slice(this.unit(from), this.unit(to))) : rep;
    this.applied?.(from, to, r);
  }
}

/** offsets[cp] = UTF-16 index of code point cp; offsets[count] = text.length. */
export function codePointOffsets(text: string): Uint32Array {
  const offsets = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    offsets[cp++] = i;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  offsets[cp] = text.length;
  return offsets.subarray(0, cp + 1);
}

/** Number of code points (what Dolma's offsets count). */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}
