// Python `str.splitlines()` with offsets, so line-level edits can be reported as spans of the original text.

export interface LineSlice {
  /** Content start and end (UTF-16), terminator excluded. */
  start: number;
  end: number;
  /** End of the terminator (`end` when the line has none). */
  next: number;
}

/** Whether a UTF-16 unit ends a line for `str.splitlines()`: \n \r \x0b \x0c \x1c \x1d \x1e \x85 \u2028 \u2029. */
export function isLineBreak(c: number): boolean {
  return c <= 0x1e ? (c >= 0x0a && c <= 0x0d) || c >= 0x1c : c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** Calls `f(start, end, next)` for each line exactly as `text.splitlines()` cuts them. */
export function forEachLine(text: string, f: (start: number, end: number, next: number) => void): void {
  const n = text.length;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII, most of any text, is never a break: settled before the full test.
    if (c > 0x1e && c < 0x85) continue;
    if (!isLineBreak(c)) continue;
    const next = c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
    f(start, i, next);
    start = next;
    i = next - 1;
  }
  if (start < n) f(start, n, n);
}

/** Lines exactly as `text.splitlines()` cuts them: a trailing terminator adds no empty line; "" has none. */
export function splitlinesWithOffsets(text: string): LineSlice[] {
  const out: LineSlice[] = [];
  forEachLine(text, (start, end, next) => out.push({ start, end, next }));
  return out;
}

/** Python whitespace (`str.isspace`) for one UTF-16 unit. */
export function isPyWs(c: number): boolean {
  if (c < 0x80) return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20);
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** `[a, b)` narrowed like `s[a:b].strip()`. */
export function stripRange(text: string, a: number, b: number): [number, number] {
  while (a < b && isPyWs(text.charCodeAt(a))) a++;
  while (b > a && isPyWs(text.charCodeAt(b - 1))) b--;
  return [a, b];
}

/** `s.strip()` found by index (the strip regex tries its trailing-whitespace branch at every position of a long text). */
export function stripText(s: string): string {
  const [a, b] = stripRange(s, 0, s.length);
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** `s.strip() == ""`. */
export function isBlankText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isPyWs(s.charCodeAt(i))) return false;
  return true;
}

/** `len(s.split())` over [a, b) and whether some word has more than `maxLen` code points (maxLen < 0: never). */
export function wordStats(text: string, a: number, b: number, maxLen: number): { count: number; tooLong: boolean } {
  let count = 0;
  let tooLong = false;
  let i = a;
  while (i < b) {
    while (i < b && isPyWs(text.charCodeAt(i))) i++;
    if (i >= b) break;
    count++;
    let cps = 0;
    while (i < b && !isPyWs(text.charCodeAt(i))) {
      const c = text.charCodeAt(i);
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < b && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      cps++;
    }
    if (maxLen >= 0 && cps > maxLen) tooLong = true;
  }
  return { count, tooLong };
}
