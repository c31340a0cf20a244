// Finds where a config field (and a number inside a rule's text) sits in the recipe text, for errors and the editor.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

export interface Place {
  line: number;
  column: number;
}

export class RecipeLocator {
  private readonly lines = new LineCounter();
  private readonly root: unknown;
  private textLines: string[] | undefined;

  constructor(private readonly text: string) {
    this.root = parseDocument(text, { lineCounter: this.lines, keepSourceTokens: true }).contents;
  }

  private pos(offset: number): Place {
    const p = this.lines.linePos(offset);
    return { line: p.line, column: p.col };
  }

  private find(path: readonly (string | number)[]): Node | undefined {
    let node: unknown = this.root;
    for (const key of path) {
      if (isMap(node)) node = node.items.find((it) => String((it.key as { value?: unknown } | null)?.value ?? it.key) === String(key))?.value;
      else if (isSeq(node) && typeof key === 'number') node = node.items[key];
      else return undefined;
    }
    return (node ?? undefined) as Node | undefined;
  }

  /** The start of the value at `path`, or of the deepest ancestor that exists. */
  at(path: readonly (string | number)[]): Place | undefined {
    for (let n = path.length; n >= 0; n--) {
      const r = this.find(path.slice(0, n))?.range;
      if (r) return this.pos(r[0]);
    }
    return undefined;
  }

  /** Where the value at `path` is written: its first line and column, and the column it ends at on that line (exclusive). */
  span(path: readonly (string | number)[]): { line: number; column: number; endColumn: number } | undefined {
    const r = this.find(path)?.range;
    if (!r) return undefined;
    const a = this.pos(r[0]);
    const b = this.pos(r[1]);
    const eol = this.text.indexOf('\n', r[0]);
    return { ...a, endColumn: b.line === a.line ? b.column : a.column + (eol < 0 ? this.text.length : eol) - r[0] };
  }

  /**
   * Where character `offset` of the string value at `path` is written. Exact for plain and quoted
   * scalars without escapes; otherwise the literal `text` is searched in the source and used when
   * it occurs there once.
   */
  inside(path: readonly (string | number)[], offset: number, text: string): Place | undefined {
    const node = this.find(path);
    if (!isScalar(node) || !node.range || typeof node.value !== 'string') return undefined;
    const [start, end] = node.range;
    const src = this.text.slice(start, end);
    const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
    const body = quoted ? src.slice(1, -1) : src;
    if (body === node.value && !body.includes('\n')) return this.pos(start + (quoted ? 1 : 0) + offset);
    const first = src.indexOf(text);
    if (first === -1 || src.indexOf(text, first + 1) !== -1) return undefined;
    return this.pos(start + first);
  }

  /**
   * The comment that names the value at `path`: trailing on the line where it starts (`- rule  # why`), else the
   * block of comment lines directly above that line (joined). Undefined when it has neither.
   */
  comment(path: readonly (string | number)[]): string | undefined {
    const node = this.find(path);
    if (!node?.range) return undefined;
    const lines = (this.textLines ??= this.text.split(/\r?\n/));
    const start = this.pos(node.range[0]).line;
    // A block map starts with its first key: its first value ends that line's content.
    const first = isMap(node) && !node.flow ? (node.items[0]?.value as Node | null | undefined) : node;
    const end = first?.range ? this.pos(first.range[1]) : undefined;
    if (end !== undefined && end.line === start) {
      const tail = /^[\s,]*#\s?(.*)$/.exec((lines[start - 1] ?? '').slice(end.column - 1));
      if (tail?.[1]?.trim()) return tail[1].trim();
    }
    const above: string[] = [];
    for (let l = start - 2; l >= 0; l--) {
      const m = /^\s*#\s?(.*)$/.exec(lines[l] ?? '');
      if (m === null) break;
      above.unshift((m[1] ?? '').trim());
    }
    const text = above.filter((x) => x !== '').join(' ');
    return text === '' ? undefined : text;
  }
}
