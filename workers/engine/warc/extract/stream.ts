// The fallback for pages nested deeper than the call stack allows (thousands of unclosed tags): one streaming pass, no tree.
import { Parser } from 'htmlparser2';
import type { Element } from 'domhandler';
import { isStructuralFurniture } from './boilerplate.js';
import { BLOCK, CELL, INVISIBLE, LINE, TextWriter } from './render.js';

/** Visible text without furniture elements (by tag, role, hidden), with the tree renderer's breaks; no main-content search. */
export function renderStream(html: string): string {
  const w = new TextWriter();
  let skipDepth = 0; // > 0 while inside a skipped element
  let preDepth = 0;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (skipDepth > 0 || INVISIBLE.has(name) || isStructuralFurniture({ name, attribs } as Element)) {
        skipDepth++;
        return;
      }
      if (name === 'br') w.brk(1);
      else if (BLOCK.has(name)) w.brk(2);
      else if (LINE.has(name)) w.brk(1);
      else if (CELL.has(name)) w.cell();
      if (name === 'pre') preDepth++;
    },
    ontext(text) {
      if (skipDepth > 0) return;
      if (preDepth > 0) w.raw(text);
      else w.text(text);
    },
    onclosetag(name) {
      if (skipDepth > 0) {
        skipDepth--;
        return;
      }
      if (BLOCK.has(name)) w.brk(2);
      else if (LINE.has(name)) w.brk(1);
      if (name === 'pre' && preDepth > 0) preDepth--;
    },
  });
  parser.end(html);
  return w.toString();
}
