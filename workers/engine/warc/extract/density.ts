// The `density` extractor: drops furniture (boilerplate.ts), then descends from <body> into the child holding nearly all non-link text.
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { isBoilerplate } from './boilerplate.js';
import { INVISIBLE, renderText } from './render.js';

// Text outside the chosen child may be at most this share of the child's own non-link text; more means the parent is the content.
const REST_SHARE = 0.05;

interface Stat { text: number; link: number }

const skip = (el: Element): boolean => INVISIBLE.has(el.name) || isBoilerplate(el);

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
  if (node.type === 'tag' && skip(node)) return { text: 0, link: 0 };
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

const own = (s: Stat | undefined): number => (s ? s.text - s.link : 0);

/** The smallest element that still holds all but REST_SHARE of its parent's non-link text, starting from the root. */
export function mainNode(root: AnyNode): AnyNode {
  const memo = new Map<AnyNode, Stat>();
  measure(root, false, memo);
  let node = root;
  for (;;) {
    if (node.type !== 'tag' && node.type !== 'root') return node;
    let best: AnyNode | undefined;
    let bestOwn = 0;
    for (const c of node.children) {
      const o = own(memo.get(c));
      if (o > bestOwn) [best, bestOwn] = [c, o];
    }
    if (!best || bestOwn === 0 || own(memo.get(node)) - bestOwn > REST_SHARE * bestOwn) return node;
    node = best;
  }
}

export function extractDensity(html: string): string {
  const doc = parseDocument(html);
  return renderText(mainNode(doc), skip);
}
