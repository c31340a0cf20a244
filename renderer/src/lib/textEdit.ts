// The smallest single replacement turning one text into another (keeps the editor's cursor and undo history sane).

export interface TextEdit {
  /** Offsets into the old text, end exclusive. */
  start: number;
  end: number;
  text: string;
}

export function minimalEdit(before: string, after: string): TextEdit | null {
  if (before === after) return null;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < max - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  // Never split a surrogate pair: widen the edit by one unit when a boundary falls inside one.
  const isLow = (s: string, i: number) => i > 0 && i < s.length && (s.charCodeAt(i) & 0xfc00) === 0xdc00;
  if (isLow(before, start) || isLow(after, start)) start--;
  if (tail > 0 && (isLow(before, before.length - tail) || isLow(after, after.length - tail))) tail--;
  return { start, end: before.length - tail, text: after.slice(start, after.length - tail) };
}
