// Line-level rewrites (C4QualityFilter's `"\n".join(kept).strip()`, SymbolLinesFormatter) as spans over the original text.
import type { TagSpan } from '../../types.js';
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import { isPyWs } from './lines.js';

/** One judged line (or sentence): content [start, end), terminator up to `next`, stripped to [a, b). */
export interface LineUnit {
  start: number;
  end: number;
  next: number;
  a: number;
  b: number;
  kept: boolean;
  /** Citation matches deleted from a kept unit. */
  cuts?: Array<[number, number]>;
  /** A kept unit whose whole content becomes a replacement string (SymbolLinesFormatter's replace_char). */
  replaced?: boolean;
}

const KEEP = 0;
const REMOVED = 1;
const TRIM = 2;
const SEP = 3;
const REPL = 4;

/**
 * Spans that turn `text` into DataTrove's rewritten text when the mixer deletes `line_removed` and `trimmed` spans
 * and replaces each `separator` span with the joiner ("\n", or " " in sentence mode):
 * - `line_removed`: each dropped unit (a line with its line break);
 * - `trimmed`: whitespace stripped from kept lines, citations, the break after the last kept line, and whatever the
 *   final `.strip()` removes;
 * - `separator`: between two kept lines, a line break other than "\n" ("\r\n" keeps its "\n" and trims the "\r").
 * - `line_replaced` (SymbolLinesFormatter with a replace_char): a line whose content becomes that string.
 * Limitation: in sentence mode two kept sentences with no character between them cannot get their " ".
 */
export function lineEdits(text: string, units: readonly LineUnit[], paragraphs: boolean, strip = true): TagSpan[] {
  const addon = nativeAddon();
  return addon === null ? lineEditsJs(text, units, paragraphs, strip) : lineEditsNative(addon, text, units, paragraphs, strip);
}

const TYPES = ['line_removed', 'trimmed', 'separator', 'line_replaced'];
let unitRows = new Int32Array(6 * 64);
let found = new Int32Array(3 * 64);
const NO_CUTS = new Int32Array(0);

/** lineEdits in C (native/line-edits.c): the units as rows of numbers, the spans back as [type, start, end]. */
export function lineEditsNative(addon: NativeAddon, text: string, units: readonly LineUnit[], paragraphs: boolean, strip: boolean): TagSpan[] {
  if (unitRows.length < 6 * units.length) unitRows = new Int32Array(12 * units.length);
  const cuts: number[] = [];
  for (let k = 0; k < units.length; k++) {
    const u = units[k] as LineUnit;
    const r = 6 * k;
    unitRows[r] = u.start;
    unitRows[r + 1] = u.end;
    unitRows[r + 2] = u.next;
    unitRows[r + 3] = u.a;
    unitRows[r + 4] = u.b;
    unitRows[r + 5] = (u.kept ? 1 : 0) | (u.replaced ? 2 : 0);
    // A dropped line keeps the citations found before it was dropped; only a kept one's are trimmed.
    if (u.kept && u.cuts !== undefined) for (const [x, y] of u.cuts) cuts.push(x, y);
  }
  return lineEditsOfRows(addon, text, unitRows.subarray(0, 6 * units.length), paragraphs, strip, Int32Array.from(cuts));
}

/** lineEdits in C of units already as rows (native/c4-quality.c writes them). */
export function lineEditsOfRows(addon: NativeAddon, text: string, rows: Int32Array, paragraphs: boolean, strip = true, cuts = NO_CUTS): TagSpan[] {
  let count = addon.lineEdits(text, rows, cuts, paragraphs, strip, found);
  if (3 * count > found.length) {
    found = new Int32Array(6 * count);
    count = addon.lineEdits(text, rows, cuts, paragraphs, strip, found);
  }
  const spans: TagSpan[] = [];
  for (let k = 0; k < 3 * count; k += 3) spans.push({ start: found[k + 1] as number, end: found[k + 2] as number, type: TYPES[found[k] as number] as string, score: 1 });
  return spans;
}

/** lineEdits in JavaScript: the reference, and the path without the addon. */
export function lineEditsJs(text: string, units: readonly LineUnit[], paragraphs: boolean, strip = true): TagSpan[] {
  const n = text.length;
  const { code, words } = codesFor(n);
  code.fill(paragraphs ? REMOVED : TRIM, 0, n);
  const kept = units.filter((u) => u.kept);
  for (const u of kept) {
    code.fill(TRIM, u.start, u.a);
    code.fill(KEEP, u.a, u.b);
    code.fill(TRIM, u.b, u.next);
    for (const [x, y] of u.cuts ?? []) code.fill(TRIM, x, y);
    if (u.replaced) code.fill(REPL, u.a, u.b);
  }
  if (!paragraphs) for (const u of units) if (!u.kept) code.fill(REMOVED, u.a, u.b);
  for (let k = 0; k + 1 < kept.length; k++) markJoiner(text, code, kept[k] as LineUnit, kept[k + 1] as LineUnit, paragraphs);
  if (strip) stripEnds(text, code, n);

  // Both lists come out in text order: merged below rather than sorted.
  const removed: TagSpan[] = [];
  for (const u of units) {
    if (!u.kept) removed.push({ start: paragraphs ? u.start : u.a, end: paragraphs ? u.next : u.b, type: 'line_removed', score: 1 });
  }
  const runs: TagSpan[] = [];
  for (let i = 0; i < n; ) {
    const c = code[i] as number;
    let j = i + 1;
    while (j < n && (j & 3) !== 0 && code[j] === c) j++;
    // Four codes at a time through the whole words of a long run.
    if ((j & 3) === 0) {
      const four = c * 0x01010101;
      while (j + 4 <= n && words[j >> 2] === four) j += 4;
      while (j < n && code[j] === c) j++;
    }
    if (c === TRIM) runs.push({ start: i, end: j, type: 'trimmed', score: 1 });
    if (c === SEP) runs.push({ start: i, end: j, type: 'separator', score: 1 });
    if (c === REPL) runs.push({ start: i, end: j, type: 'line_replaced', score: 1 });
    i = j;
  }
  return mergeByStart(removed, runs);
}

/** Codes reused from call to call (a document's worth), words over the same bytes; a very long text gets its own. */
let shared = overOneBuffer(1 << 12);
const SHARED_MAX = 1 << 22;

function codesFor(n: number): { code: Uint8Array; words: Uint32Array } {
  if (n <= shared.code.length) return shared;
  const fresh = overOneBuffer((n + 3) & ~3);
  if (fresh.code.length <= SHARED_MAX) shared = fresh;
  return fresh;
}

function overOneBuffer(bytes: number): { code: Uint8Array; words: Uint32Array } {
  const buf = new ArrayBuffer(bytes);
  return { code: new Uint8Array(buf), words: new Uint32Array(buf) };
}

/** Two lists sorted by start as one, `a`'s span first at equal starts (as a stable sort of a then b would put them). */
function mergeByStart(a: TagSpan[], b: TagSpan[]): TagSpan[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: TagSpan[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push((a[i] as TagSpan).start <= (b[j] as TagSpan).start ? (a[i++] as TagSpan) : (b[j++] as TagSpan));
  while (i < a.length) out.push(a[i++] as TagSpan);
  while (j < b.length) out.push(b[j++] as TagSpan);
  return out;
}

function markJoiner(text: string, code: Uint8Array, u: LineUnit, next: LineUnit, paragraphs: boolean): void {
  if (paragraphs) {
    if (text.startsWith('\r\n', u.end)) {
      code[u.end] = TRIM;
      code[u.end + 1] = KEEP;
    } else if (text.charCodeAt(u.end) === 0x0a) code[u.end] = KEEP;
    else code.fill(SEP, u.end, u.next);
    return;
  }
  for (let i = u.b; i < next.a; i++) {
    if (code[i] !== TRIM) continue;
    code[i] = text.charCodeAt(i) === 0x20 ? KEEP : SEP;
    return;
  }
}

/** The final `.strip()`: output characters (kept ones, and joiners, which are whitespace) at either end. */
function stripEnds(text: string, code: Uint8Array, n: number): void {
  const ws = (i: number) => code[i] === SEP || (code[i] === KEEP && isPyWs(text.charCodeAt(i)));
  for (let i = 0; i < n; i++) {
    if (code[i] !== KEEP && code[i] !== SEP) continue;
    if (!ws(i)) break;
    code[i] = TRIM;
  }
  for (let i = n - 1; i >= 0; i--) {
    if (code[i] !== KEEP && code[i] !== SEP) continue;
    if (!ws(i)) break;
    code[i] = TRIM;
  }
}
