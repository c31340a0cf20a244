// Bracket structure of a jq token stream: the shape the index-chain rewriter and the safety check walk.
import { JqSyntaxError, type Token } from './tokenize.js';

/** A bracketed sub-sequence: `( … )`, `[ … ]` or `{ … }`. */
export interface Group {
  kind: 'group';
  open: Token;
  items: Item[];
  close: Token;
}

export type Item = Token | Group;

const CLOSER: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Nest tokens by brackets; unbalanced or mismatched brackets are a syntax error. */
export function buildTree(tokens: readonly Token[]): Item[] {
  const stack: { open: Token; items: Item[] }[] = [];
  let items: Item[] = [];
  for (const t of tokens) {
    if (t.kind === 'open') {
      stack.push({ open: t, items });
      items = [];
    } else if (t.kind === 'close') {
      const frame = stack.pop();
      if (!frame || CLOSER[frame.open.text] !== t.text) throw new JqSyntaxError(`unexpected \`${t.text}\``, t.start);
      const group: Group = { kind: 'group', open: frame.open, items, close: t };
      items = frame.items;
      items.push(group);
    } else items.push(t);
  }
  const unclosed = stack.pop();
  if (unclosed) throw new JqSyntaxError(`unclosed \`${unclosed.open.text}\``, unclosed.open.start);
  return items;
}

export function isGroup(item: Item | undefined): item is Group {
  return item !== undefined && item.kind === 'group';
}

/** Whitespace and comments: they never change how the surrounding tokens parse. */
export function isTrivia(item: Item | undefined): boolean {
  return item !== undefined && (item.kind === 'ws' || item.kind === 'comment');
}

/** Index of the next non-trivia item after `i`, or -1. */
export function nextSig(items: readonly Item[], i: number): number {
  for (let j = i + 1; j < items.length; j++) if (!isTrivia(items[j])) return j;
  return -1;
}

/** Index of the previous non-trivia item before `i`, or -1. */
export function prevSig(items: readonly Item[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (!isTrivia(items[j])) return j;
  return -1;
}

/** Source text of an item, exactly as written. */
export function sourceOf(item: Item): string {
  if (item.kind !== 'group') return item.text;
  return item.open.text + item.items.map(sourceOf).join('') + item.close.text;
}

/** Whether a group is `[` … `]` with nothing but trivia inside (the iterator `[]`). */
export function isEmptyBrackets(item: Item | undefined): boolean {
  return isGroup(item) && item.open.text === '[' && item.items.every(isTrivia);
}
