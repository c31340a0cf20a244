// Renders a parsed HTML subtree as plain text: `\n\n` between blocks, `\n` for `<br>`, list items and table rows.
import type { AnyNode, Element } from 'domhandler';

/** Elements whose text is never visible on the page, whatever the extractor. */
export const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link', 'svg', 'iframe', 'object', 'canvas', 'select', 'button', 'input', 'textarea']);

// Paragraph-level containers: their text stands apart from the text around it by a blank line.
export const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'details', 'dialog', 'div', 'dl', 'fieldset', 'figcaption', 'figure',
  'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'ul', 'caption', 'menu',
]);
// Line-level items: one line each, no blank line between siblings (so a list or a table reads as one block).
export const LINE = new Set(['li', 'tr', 'dt', 'dd', 'option']);
export const CELL = new Set(['td', 'th']);

/** Collects text with pending-break bookkeeping, so empty elements never produce runs of blank lines. */
export class TextWriter {
  private out: string[] = [];
  private pending = 0; // 0 none, 1 newline, 2 blank line
  private needSpace = false;
  private atLineStart = true;

  brk(n: 1 | 2): void {
    if (n > this.pending) this.pending = n;
  }

  /** A table cell after the first in its row: a tab, unless a line break is already due. */
  cell(): void {
    if (this.pending === 0 && !this.atLineStart) {
      this.out.push('\t');
      this.atLineStart = true;
      this.needSpace = false;
    }
  }

  private flushBreak(): void {
    if (this.pending > 0) {
      if (this.out.length > 0) this.out.push(this.pending === 2 ? '\n\n' : '\n');
      this.pending = 0;
      this.atLineStart = true;
      this.needSpace = false;
    }
  }

  /** Inline text: runs of whitespace become one space; none at the start or end of a line. */
  text(s: string): void {
    const words = s.split(/[ \t\n\r\f\v\u00a0\u200b]+/);
    if (words.length === 1 && words[0] === '') return;
    for (let i = 0; i < words.length; i++) {
      const w = words[i] as string;
      if (i > 0) this.needSpace = true;
      if (w === '') continue;
      this.flushBreak();
      if (this.needSpace && !this.atLineStart) this.out.push(' ');
      this.out.push(w);
      this.needSpace = false;
      this.atLineStart = false;
    }
  }

  /** Preformatted text, kept verbatim (only trailing whitespace trimmed off each line). */
  raw(s: string): void {
    if (s === '') return;
    this.flushBreak();
    if (this.needSpace && !this.atLineStart) this.out.push(' ');
    this.out.push(s.replace(/[ \t]+$/gm, ''));
    this.needSpace = false;
    this.atLineStart = s.endsWith('\n');
  }

  toString(): string {
    return this.out.join('').trim();
  }
}

export type Skip = (el: Element) => boolean;

function walk(node: AnyNode, w: TextWriter, skip: Skip, pre: boolean): void {
  if (node.type === 'text') {
    if (pre) w.raw(node.data);
    else w.text(node.data);
    return;
  }
  if (node.type !== 'tag' && node.type !== 'root') return;
  if (node.type === 'tag') {
    const el = node;
    const name = el.name;
    if (INVISIBLE.has(name) || skip(el)) return;
    if (name === 'br') return w.brk(1);
    const block = BLOCK.has(name);
    const line = LINE.has(name);
    if (block) w.brk(2);
    else if (line) w.brk(1);
    else if (CELL.has(name)) w.cell();
    const inPre = pre || name === 'pre' || name === 'textarea';
    for (const c of el.children) walk(c, w, skip, inPre);
    if (block) w.brk(2);
    else if (line) w.brk(1);
    return;
  }
  for (const c of node.children) walk(c, w, skip, pre);
}

/** The text of `node` as a reader sees it, leaving out every element `skip` rejects. */
export function renderText(node: AnyNode, skip: Skip = () => false): string {
  const w = new TextWriter();
  walk(node, w, skip, false);
  return w.toString();
}
