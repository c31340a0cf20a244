// The `density` extractor: drops furniture (boilerplate.ts), then descends from <body> into the child holding nearly all non-link text.
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { isStructuralFurniture, namedFurniture } from './boilerplate.js';
import { INVISIBLE, renderText } from './render.js';

// Text outside the chosen child may be at most this share of the child's own non-link text; more means the parent is the content.
const REST_SHARE = 0.05;
// Inside the main content, a weakly named element (`sidebar`, `related`) is dropped only when at least this share of its text is links.
const LINK_DENSE = 0.5;

const INLINE = new Set(['a', 'abbr', 'b', 'big', 'cite', 'code', 'em', 'font', 'i', 'kbd', 'label', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'tt', 'u', 'var']);

interface Stat { text: number; link: number }

/** While looking for the main content, every kind of furniture is left out of the counts. */
const skipAll = (el: Element): boolean => INVISIBLE.has(el.name) || isStructuralFurniture(el) || namedFurniture(el) !== null;

function countChars(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/** Visible characters under each element and how many of them sit inside links (links are what menus are made of). */
function measure(node: AnyNode, inLink: boolean, memo: Map<AnyNode, Stat>): Stat {
  if (node.type === 'text') {
    const n = countChars(node.data);
    return { text: n, link: inLink ? n : 0 };
  }
  if (node.type !== 'tag' && node.type !== 'root') return { text: 0, link: 0 };
  if (node.type === 'tag' && skipAll(node)) return { text: 0, link: 0 };
  const link = inLink || (node.type === 'tag' && node.name === 'a');
  const s: Stat = { text: 0, link: 0 };
  for (const c of node.children) {
    const cs = measure(c, link, memo);
    s.text += cs.text;
    s.link += cs.link;
  }
  memo.set(node, s);
  return s;
}

/** Characters and link characters under `el` itself, furniture inside it counted too. */
function linkStat(el: AnyNode, inLink = false): Stat {
  if (el.type === 'text') {
    const n = countChars(el.data);
    return { text: n, link: inLink ? n : 0 };
  }
  if (el.type !== 'tag') return { text: 0, link: 0 };
  if (INVISIBLE.has(el.name)) return { text: 0, link: 0 };
  const link = inLink || el.name === 'a';
  const s: Stat = { text: 0, link: 0 };
  for (const c of el.children) {
    const cs = linkStat(c, link);
    s.text += cs.text;
    s.link += cs.link;
  }
  return s;
}

const own = (s: Stat | undefined): number => (s ? s.text - s.link : 0);
const total = (s: Stat | undefined): number => s?.text ?? 0;

/** The smallest element that still holds all but REST_SHARE of its parent's non-link text, starting from the root. */
export function mainNode(root: AnyNode, memo: Map<AnyNode, Stat>): AnyNode {
  measure(root, false, memo);
  let node = root;
  for (;;) {
    if (node.type !== 'tag' && node.type !== 'root') return node;
    let best: AnyNode | undefined;
    let bestOwn = 0;
    for (const c of node.children) {
      // Content containers are blocks: descending into nested inline tags (unclosed <font>s) would cut the text to the innermost one.
      if (c.type === 'tag' && INLINE.has(c.name)) continue;
      const o = own(memo.get(c));
      if (o > bestOwn) [best, bestOwn] = [c, o];
    }
    if (!best || bestOwn === 0 || own(memo.get(node)) - bestOwn > REST_SHARE * bestOwn) return node;
    // Nor when the rest is a bigger block of links than the child is text: a heading above a table of contents is not the content.
    if (total(memo.get(node)) - total(memo.get(best)) > total(memo.get(best))) return node;
    node = best;
  }
}

export function extractDensity(html: string): string {
  const doc = parseDocument(html);
  const memo = new Map<AnyNode, Stat>();
  const main = mainNode(doc, memo);
  // Weakly named elements were left out of the counts, so their own stats are measured here, when met.
  const skipInMain = (el: Element): boolean => {
    if (INVISIBLE.has(el.name) || isStructuralFurniture(el)) return true;
    const named = namedFurniture(el);
    if (named !== 'weak') return named === 'strong';
    const s = linkStat(el);
    return s.text === 0 || s.link >= LINK_DENSE * s.text;
  };
  return renderText(main, skipInMain);
}
