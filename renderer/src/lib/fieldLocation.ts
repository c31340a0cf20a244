// Where a config field (`streams[0].output.path`) sits in YAML/JSON text, for errors the host names only by field.

/** `streams[0].output.path` → ['streams', 0, 'output', 'path']. */
export function parseField(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  return out;
}

function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return (nl < 0 ? text.length : nl) - (text[nl - 1] === '\r' ? 1 : 0);
}

export interface FieldLocation {
  line: number;
  column: number;
  endColumn: number;
}

/**
 * The 1-based position of the field's value (its key when the value spans lines), or of the deepest part of the
 * path that exists; null when the text does not parse. The YAML parser is loaded on first use: this only runs
 * when a run is refused.
 */
export async function locateField(text: string, field: string): Promise<FieldLocation | null> {
  const { isMap, isSeq, LineCounter, parseDocument } = await import('yaml');
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) return null;
  type Ranged = { range?: [number, number, number] | null } | null | undefined;
  let node: unknown = doc.contents;
  let best: [number, number] | null = null;
  for (const key of parseField(field)) {
    if (isMap(node)) {
      const pair = node.items.find((it) => String((it.key as { value?: unknown } | null)?.value ?? it.key) === String(key));
      if (!pair) break;
      const k = (pair.key as Ranged)?.range;
      if (k) best = [k[0], k[1]];
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
      node = node.items[key];
    } else break;
    const r = (node as Ranged)?.range;
    if (!r) continue;
    if (lc.linePos(r[0]).line === lc.linePos(Math.max(r[0], r[1] - 1)).line) best = [r[0], r[1]];
    // A list item spanning lines: its first line (a mapping value spanning lines keeps its key).
    else if (typeof key === 'number') best = [r[0], lineEnd(text, r[0])];
  }
  if (!best) return null;
  const start = lc.linePos(best[0]);
  const end = lc.linePos(best[1]);
  return { line: start.line, column: start.col, endColumn: end.line === start.line ? end.col : start.col + 1 };
}
