// Limits checked on config text before and after YAML parsing: size, nesting depth, aliases (no parser recursion blow-ups, no alias bombs).
import { isAlias, isCollection, isPair, isScalar, Lexer, type Document, type Node } from 'yaml';

/** Longest config text accepted, in characters (the YAML parser takes about 1 s per MB). */
export const MAX_CONFIG_CHARS = 1024 * 1024;
/** Deepest nesting accepted (block levels and flow brackets together); Dolma configs use fewer than 10. */
export const MAX_CONFIG_DEPTH = 64;
/** Most nodes all aliases together may expand to: a config needs a few, an alias bomb needs billions. */
export const MAX_ALIAS_NODES = 10_000;

export interface BoundIssue {
  message: string;
  line: number;
}

/** Zero-width control tokens of yaml's lexer: document start, flow error end, scalar marker, BOM. */
const CONTROL = new Set(['\x02', '\x18', '\x1f', '\u{FEFF}']);

/**
 * Why before parsing: the `yaml` parser recurses once per nesting level, and a stack overflow
 * inside its regular expressions can abort Node outright (`'['.repeat(3000)`) instead of throwing.
 * Its lexer is a flat state machine, linear in the text and aware of quotes, comments and block
 * scalars, so counting flow brackets and block indentation levels on its tokens is cheap and exact
 * enough. Returns the first limit crossed, with its 1-based line.
 */
export function checkConfigText(text: string): BoundIssue | null {
  if (text.length > MAX_CONFIG_CHARS) {
    return { message: `the config is ${text.length.toLocaleString('en-US')} characters long; the limit is ${MAX_CONFIG_CHARS.toLocaleString('en-US')}`, line: lineAt(text, MAX_CONFIG_CHARS) };
  }
  let line = 1;
  let col = 0;
  let flow = 0;
  const block: number[] = []; // columns of the open block levels
  let lineStart = true;
  let scalarBody = false; // the token after a scalar marker is the scalar's own text
  const advance = (tok: string): void => {
    const nl = tok.lastIndexOf('\n');
    if (nl === -1) col += tok.length;
    else {
      for (let i = tok.indexOf('\n'); i !== -1; i = tok.indexOf('\n', i + 1)) line++;
      col = tok.length - nl - 1;
    }
  };
  const open = (at: number): BoundIssue | null => {
    while (block.length > 0 && (block[block.length - 1] as number) >= at) block.pop();
    block.push(at);
    return block.length + flow > MAX_CONFIG_DEPTH ? tooDeep(line) : null;
  };
  for (const tok of new Lexer().lex(text)) {
    if (scalarBody) {
      scalarBody = false;
      advance(tok);
      continue;
    }
    if (CONTROL.has(tok)) {
      if (tok === '\x1f') {
        scalarBody = true;
        if (lineStart && flow === 0) {
          const issue = open(col);
          if (issue) return issue;
        }
        lineStart = false;
      }
      continue;
    }
    const c = tok.charAt(0);
    if (tok === '\n' || tok === '\r\n') {
      line++;
      col = 0;
      lineStart = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '#') {
      advance(tok);
      continue;
    }
    if (flow === 0 && (lineStart || tok === '-' || tok === '?' || tok === ':')) {
      // Compact nesting (`- - x`, `? ? k`) opens a level per indicator, like a new indented line.
      if (lineStart || tok !== ':') {
        const issue = open(col);
        if (issue) return issue;
      }
    }
    lineStart = false;
    if (tok === '[' || tok === '{') {
      flow++;
      if (block.length + flow > MAX_CONFIG_DEPTH) return tooDeep(line);
    } else if ((tok === ']' || tok === '}') && flow > 0) flow--;
    advance(tok);
  }
  return null;
}

const tooDeep = (line: number): BoundIssue => ({ message: `the config nests deeper than ${MAX_CONFIG_DEPTH} levels`, line });

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Aliases, checked on the parsed tree before it is turned into plain objects: an alias must follow
 * its anchor and not sit inside it, and all aliases together may expand to at most MAX_ALIAS_NODES
 * nodes. (`yaml` itself throws a bare ReferenceError for the first two and uses a cruder count for
 * the third.) `lineOf` maps a source offset to its line.
 */
export function checkAliases(doc: Document, lineOf: (offset: number) => number): BoundIssue | null {
  const anchors = new Map<string, Node>();
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let expanded = 0;
  const at = (n: Node): number => lineOf(n.range?.[0] ?? 0);
  const walk = (n: unknown): number | BoundIssue => {
    if (isAlias(n)) {
      const target = anchors.get(n.source);
      if (target === undefined) return { message: `unresolved alias *${n.source}: no anchor &${n.source} before it`, line: at(n) };
      if (open.has(target)) return { message: `alias *${n.source} is inside the node it refers to`, line: at(n) };
      const size = sizes.get(target) ?? 1;
      expanded += size;
      if (expanded > MAX_ALIAS_NODES) return { message: `aliases expand to more than ${MAX_ALIAS_NODES.toLocaleString('en-US')} nodes (an alias bomb?)`, line: at(n) };
      return size;
    }
    if (isPair(n)) {
      const k = walk(n.key);
      if (typeof k !== 'number') return k;
      const v = walk(n.value);
      return typeof v !== 'number' ? v : k + v;
    }
    if (!isScalar(n) && !isCollection(n)) return 0;
    if (n.anchor) anchors.set(n.anchor, n);
    let size = 1;
    if (isCollection(n)) {
      open.add(n);
      for (const item of n.items) {
        const s = walk(item);
        if (typeof s !== 'number') return s;
        size += s;
      }
      open.delete(n);
    }
    sizes.set(n, size);
    return size;
  };
  const r = walk(doc.contents);
  return typeof r === 'number' ? null : r;
}
