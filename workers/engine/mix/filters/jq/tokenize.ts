// A lexer for jq 1.7 programs, faithful enough to rewrite index chains and vet identifiers safely.

/**
 * Token kinds. `str` tokens carry their parts so that string interpolations (`"\(...)"`) are
 * tokenized recursively: a banned builtin or an index chain inside an interpolation is code, too.
 */
export type TokenKind =
  | 'ws'
  | 'comment'
  | 'field' // .name (keywords included: jq 1.7 accepts `.if`)
  | 'dot' // .
  | 'rec' // ..
  | 'num'
  | 'str'
  | 'ident' // name or mod::name
  | 'keyword'
  | 'var' // $name, $__loc__
  | 'format' // @name
  | 'open' // ( [ {
  | 'close' // ) ] }
  | 'question' // ?
  | 'op';

export type StrPart = { kind: 'literal'; text: string } | { kind: 'interp'; tokens: Token[] };

export interface Token {
  kind: TokenKind;
  /** Source text exactly as written (for `str`: the whole literal, quotes included). */
  text: string;
  /** Offset of the first character in the top-level program. */
  start: number;
  parts?: StrPart[];
}

/** The lexer or bracket matcher rejected the program (jq would too). */
export class JqSyntaxError extends Error {
  override readonly name = 'JqSyntaxError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

/** jq 1.7's reserved words (src/lexer.l); `not`, `break`'s target etc. are ordinary names or handled by jq. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'as', 'def', 'module', 'import', 'include', 'if', 'then', 'elif', 'else', 'end',
  'reduce', 'foreach', 'try', 'catch', 'label', 'and', 'or', '__loc__', 'break',
]);

// Longest operators first: jq's lexer is maximal-munch, so `?//` is one token (never `?` then `//`).
const OPERATORS = ['?//', '//=', '|=', '+=', '-=', '*=', '/=', '%=', '==', '!=', '<=', '>=', '//', '|', ',', ';', ':', '+', '-', '*', '/', '%', '=', '<', '>'];

const NAME = /[a-zA-Z_][a-zA-Z0-9_]*(?:::[a-zA-Z_][a-zA-Z0-9_]*)*/y;
const FIELD_NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const FORMAT = /@[a-zA-Z0-9_]+/y;
const WS = /[ \t\r\n]+/y;

function matchAt(re: RegExp, src: string, pos: number): string | null {
  re.lastIndex = pos;
  const m = re.exec(src);
  return m ? m[0] : null;
}

/** Tokenize a whole jq program. */
export function tokenize(src: string): Token[] {
  return lex(src, 0, false).tokens;
}

/**
 * Lex from `pos`. With `inInterp`, stop before the `)` that closes a `\(` interpolation: that is the
 * first `)` not matched by a bracket opened inside it, exactly as jq's lexer tracks it.
 */
function lex(src: string, pos: number, inInterp: boolean): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  let depth = 0;
  const push = (kind: TokenKind, text: string, extra?: Partial<Token>): void => {
    tokens.push({ kind, text, start: pos, ...extra });
    pos += text.length;
  };
  while (pos < src.length) {
    const c = src[pos]!;
    const ws = matchAt(WS, src, pos);
    if (ws !== null) push('ws', ws);
    else if (c === '#') {
      // jq 1.7 ends a comment at "\n" only (a trailing backslash does not continue it; checked on jq-web).
      const nl = src.indexOf('\n', pos);
      push('comment', src.slice(pos, nl === -1 ? src.length : nl));
    } else if (c === '"') {
      const { parts, end } = lexString(src, pos);
      push('str', src.slice(pos, end), { parts });
    } else if (c === '.') {
      const num = matchAt(NUMBER, src, pos);
      if (num !== null) push('num', num);
      else if (src[pos + 1] === '.') push('rec', '..');
      else {
        const name = matchAt(FIELD_NAME, src, pos + 1);
        if (name !== null) push('field', '.' + name);
        else push('dot', '.');
      }
    } else if (c === '$') {
      const name = matchAt(NAME, src, pos + 1);
      push(name !== null ? 'var' : 'op', name !== null ? '$' + name : '$');
    } else if (c === '@') {
      const fmt = matchAt(FORMAT, src, pos);
      push(fmt !== null ? 'format' : 'op', fmt ?? '@');
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
      push('open', c);
    } else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0 && c === ')' && inInterp) return { tokens, end: pos };
      depth--;
      push('close', c);
    } else if (c === '?' && !src.startsWith('?//', pos)) push('question', '?');
    else {
      const num = matchAt(NUMBER, src, pos);
      const name = num === null ? matchAt(NAME, src, pos) : null;
      const op = OPERATORS.find((o) => src.startsWith(o, pos));
      if (num !== null) push('num', num);
      else if (name !== null) push(KEYWORDS.has(name) ? 'keyword' : 'ident', name);
      else push('op', op ?? c);
    }
  }
  if (inInterp) throw new JqSyntaxError('unterminated string interpolation', pos);
  return { tokens, end: pos };
}

/** Lex a string literal starting at its opening quote; returns its parts and the offset after the closing quote. */
function lexString(src: string, open: number): { parts: StrPart[]; end: number } {
  const parts: StrPart[] = [];
  let pos = open + 1;
  let lit = '';
  while (pos < src.length) {
    const c = src[pos]!;
    if (c === '"') {
      if (lit) parts.push({ kind: 'literal', text: lit });
      return { parts, end: pos + 1 };
    }
    if (c === '\\' && src[pos + 1] === '(') {
      if (lit) parts.push({ kind: 'literal', text: lit });
      lit = '';
      const inner = lex(src, pos + 2, true);
      parts.push({ kind: 'interp', tokens: inner.tokens });
      pos = inner.end + 1;
    } else if (c === '\\') {
      // Any other escape is two characters here; jq itself rejects invalid ones at compile time.
      lit += src.slice(pos, pos + 2);
      pos += 2;
    } else {
      lit += c;
      pos++;
    }
  }
  throw new JqSyntaxError('unterminated string', open);
}
