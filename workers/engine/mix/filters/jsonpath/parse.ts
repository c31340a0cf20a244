// Parser for Dolma's JSONPath subset (jsonpath-rust 0.3 grammar plus a few safe superset forms).

import type { Json } from '../types.js';
import {
  plainStep,
  type CompareOp,
  type FilterExpr,
  type LiteralExpr,
  type Operand,
  type PathExpr,
  type Segment,
  type Selector,
} from './ast.js';
import { compileLinearRegex } from './regex.js';
import { utf8Length } from '../../json.js';
import { MAX_EXPR_BYTES, Scanner } from './scanner.js';

/**
 * Most wildcard / descendant / slice / union / filter segments in one expression. The evaluator
 * recurses once per such segment, so this (with MAX_NESTING) keeps evaluation off the stack limit.
 */
export const MAX_GENERAL_SEGMENTS = 256;

/**
 * Parse a rule or selector expression (`$…`). Throws FilterCompileError naming the character
 * offset of the problem. Accepts everything the Dolma configs use, including the stray `$@.` prefix.
 */
export function parseJsonPath(expr: string): PathExpr {
  // Measured before anything else so a huge input costs one linear scan at most.
  if (expr.length > MAX_EXPR_BYTES || utf8Length(expr) > MAX_EXPR_BYTES) {
    const s: Scanner = new Scanner(expr.slice(0, 80));
    s.fail(`expression is longer than ${MAX_EXPR_BYTES} bytes`, 0);
  }
  return new Parser(expr).parseTop();
}

/** Word-form comparison operators; matched case-sensitively as whole words. */
const WORD_OPS: ReadonlySet<string> = new Set(['in', 'nin', 'size', 'anyOf', 'noneOf', 'subsetOf']);
const SYMBOL_OPS: readonly CompareOp[] = ['==', '!=', '<=', '>=', '~=', '<', '>'];

/** Characters of an unquoted key: jsonpath-rust 0.3's `[A-Za-z0-9_\-/\\#]`, plus any non-ASCII. */
function isKeyChar(c: string): boolean {
  return /[A-Za-z0-9_\-/\\#]/.test(c) || c.charCodeAt(0) >= 0x80;
}

class Parser {
  private readonly s: Scanner;
  private generalSegments = 0;

  constructor(src: string) {
    this.s = new Scanner(src);
  }

  parseTop(): PathExpr {
    const s: Scanner = this.s;
    s.skipSpace();
    if (s.peek() !== '$') s.fail(s.peek() === '@' ? "a rule must start with '$' ('@' is only valid inside [?( )])" : "expected '$'");
    s.pos++;
    s.eat('@'); // `$@.x` is accepted by jsonpath-rust 0.3 and used by Dolma configs; it means `$.x`.
    const path = this.parseSegments('root');
    s.skipSpace();
    if (!s.done) s.fail(`unexpected '${s.peek()}'`);
    return path;
  }

  /** Segments after a `$` or `@` that the caller already consumed. */
  private parseSegments(start: PathExpr['start']): PathExpr {
    const s: Scanner = this.s;
    const segments: Segment[] = [];
    for (;;) {
      const save = s.pos;
      s.skipSpace();
      const c = s.peek();
      if (c !== '.' && c !== '[') {
        s.pos = save; // whitespace after a path belongs to the surrounding filter expression
        break;
      }
      const at = s.pos;
      const segment = this.parseSegment();
      if (plainStep(segment) === undefined && ++this.generalSegments > MAX_GENERAL_SEGMENTS) {
        s.fail(`more than ${MAX_GENERAL_SEGMENTS} wildcard/descendant/slice/union/filter segments`, at);
      }
      segments.push(segment);
    }
    return { kind: 'path', start, segments };
  }

  private parseSegment(): Segment {
    const s: Scanner = this.s;
    if (s.eat('..')) {
      if (s.eat('*')) return { kind: 'descendant', selectors: [{ kind: 'wildcard' }] };
      if (s.peek() === '[') return { kind: 'descendant', selectors: this.parseBracket() };
      return { kind: 'descendant', selectors: [this.parseDottedName("'..'")] };
    }
    if (s.eat('.')) {
      if (s.eat('*')) return { kind: 'child', selectors: [{ kind: 'wildcard' }] };
      if (s.peek() === '[') return { kind: 'child', selectors: this.parseBracket() }; // `.[0]`, as 0.3 allows
      return { kind: 'child', selectors: [this.parseDottedName("'.'")] };
    }
    return { kind: 'child', selectors: this.parseBracket() };
  }

  private parseDottedName(after: string): Selector {
    const s: Scanner = this.s;
    const start = s.pos;
    while (!s.done && isKeyChar(s.peek())) s.pos++;
    if (s.pos === start) s.fail(`expected a key, '*' or '[' after ${after}`);
    const name = s.src.slice(start, s.pos);
    if (name === 'length' && s.startsWith('()')) s.fail('the length() function is not supported', start);
    return { kind: 'name', name };
  }

  /** `[ … ]`: wildcard, filter, or a union of names / indexes / slices. */
  private parseBracket(): Selector[] {
    const s: Scanner = this.s;
    const open = s.pos;
    s.pos++; // '['
    s.skipSpace();
    if (s.eat('*')) {
      s.expect(']');
      return [{ kind: 'wildcard' }];
    }
    if (s.peek() === '?') {
      s.pos++;
      s.enter(open);
      s.skipSpace();
      // `?(expr)` is the 0.3 form; a parenthesised expression is itself an expression, so the
      // RFC 9535 form `?expr` falls out of the same rule.
      const test = this.parseOr();
      s.leave();
      s.expect(']', "']' to close the filter");
      return [{ kind: 'filter', test }];
    }
    const selectors: Selector[] = [];
    do {
      s.skipSpace();
      selectors.push(this.parseUnionMember());
      s.skipSpace();
    } while (s.eat(','));
    s.expect(']', "',' or ']'");
    return selectors;
  }

  private parseUnionMember(): Selector {
    const s: Scanner = this.s;
    const c = s.peek();
    if (c === "'" || c === '"') return { kind: 'name', name: s.readString() };
    const at = s.pos;
    const first = c === ':' ? null : s.readInteger();
    if (first === null && c !== ':') s.fail("expected a quoted key, an index, a slice, '*' or '?('");
    s.skipSpace();
    if (s.peek() !== ':') return { kind: 'index', index: first as number };
    s.pos++;
    s.skipSpace();
    const end = s.peek() === ':' || s.peek() === ']' || s.peek() === ',' ? null : s.readInteger();
    let step: number | null = null;
    s.skipSpace();
    if (s.eat(':')) {
      s.skipSpace();
      step = s.peek() === ']' || s.peek() === ',' ? null : s.readInteger();
      if (step === 0) s.fail('slice step must not be 0', at);
    }
    return { kind: 'slice', start: first, end, step };
  }

  private parseOr(): FilterExpr {
    const operands = [this.parseAnd()];
    while (this.eatLogic('||')) operands.push(this.parseAnd());
    return operands.length === 1 ? (operands[0] as FilterExpr) : { kind: 'or', operands };
  }

  private parseAnd(): FilterExpr {
    const operands = [this.parseUnary()];
    while (this.eatLogic('&&')) operands.push(this.parseUnary());
    return operands.length === 1 ? (operands[0] as FilterExpr) : { kind: 'and', operands };
  }

  private eatLogic(op: string): boolean {
    this.s.skipSpace();
    return this.s.eat(op);
  }

  private parseUnary(): FilterExpr {
    const s: Scanner = this.s;
    s.skipSpace();
    if (s.peek() !== '!' || s.peek(1) === '=') return this.parsePrimary();
    const at = s.pos++;
    s.enter(at);
    s.skipSpace();
    const grouped = s.peek() === '(';
    const operand = this.parseUnary();
    s.leave();
    if (!grouped) {
      // jsonpath-rust 0.3.5 reads `!a || b` as `!(a || b)`; most readers expect `(!a) || b`.
      // Rather than silently pick one, insist on parentheses.
      const save = s.pos;
      s.skipSpace();
      if (s.startsWith('&&') || s.startsWith('||')) {
        s.fail("ambiguous '!': write !(a || b) to negate the whole condition or (!a) || b to negate one operand", at);
      }
      s.pos = save;
    }
    return { kind: 'not', operand };
  }

  private parsePrimary(): FilterExpr {
    const s: Scanner = this.s;
    if (s.peek() === '(') {
      const open = s.pos++;
      s.enter(open);
      const inner = this.parseOr();
      s.leave();
      s.expect(')', "')'");
      return inner;
    }
    const left = this.parseOperand();
    const opAt = (s.skipSpace(), s.pos);
    const op = this.readOperator();
    if (op === null) {
      if (s.peek() === '(') s.fail('function calls are not part of JSONPath filters');
      if (left.kind === 'literal') s.fail('a literal on its own is not a condition; compare it with something', opAt);
      return { kind: 'exists', path: left };
    }
    s.skipSpace();
    const right = op === '~=' ? this.parseRegexLiteral() : this.parseOperand();
    return { kind: 'compare', op, left, right };
  }

  private readOperator(): CompareOp | null {
    const s: Scanner = this.s;
    for (const op of SYMBOL_OPS) {
      if (s.startsWith(op)) {
        if (op === '==' && s.peek(2) === '=') s.fail("'===' is not an operator; use '=='");
        s.pos += op.length;
        return op;
      }
    }
    if (s.peek() === '=') s.fail("'=' is not an operator; use '=='");
    const word = /^[A-Za-z]+/.exec(s.src.slice(s.pos, s.pos + 16));
    if (word === null) return null;
    if (!WORD_OPS.has(word[0])) s.fail(`unknown operator '${word[0]}'`);
    s.pos += word[0].length;
    return word[0] as CompareOp;
  }

  /** The right side of `~=`: a quoted literal, read raw and vetted here so errors carry its offset. */
  private parseRegexLiteral(): LiteralExpr {
    const s: Scanner = this.s;
    const at = s.pos;
    // A regex read from the document would bypass the vetting below, so only literals are allowed.
    if (s.peek() !== "'" && s.peek() !== '"') s.fail("the right side of '~=' must be a quoted regex literal");
    const pattern = s.readString(true);
    const compiled = compileLinearRegex(pattern);
    if (typeof compiled === 'string') s.fail(compiled, at);
    return { kind: 'literal', value: pattern };
  }

  private parseOperand(): Operand {
    const s: Scanner = this.s;
    const c = s.peek();
    if (c === '@') {
      s.pos++;
      return this.parseSegments('current');
    }
    if (c === '$') {
      s.pos++;
      return this.parseSegments('root');
    }
    if (c === '(') s.fail('parentheses cannot wrap a value; only conditions can be grouped');
    const value = this.parseLiteralValue('expected a path (@… or $…) or a literal');
    return { kind: 'literal', value } satisfies LiteralExpr;
  }

  /** A number, quoted string, true/false/null, or `[ … ]` array of literals. */
  private parseLiteralValue(what: string): Json {
    const s: Scanner = this.s;
    const c = s.peek();
    if (c === "'" || c === '"') return s.readString();
    if (c === '[') {
      const open = s.pos++;
      s.enter(open);
      const items: Json[] = [];
      s.skipSpace();
      if (!s.eat(']')) {
        do {
          s.skipSpace();
          items.push(this.parseLiteralValue('expected a literal in the array'));
          s.skipSpace();
        } while (s.eat(','));
        s.expect(']', "',' or ']'");
      }
      s.leave();
      return items;
    }
    const word = /^(true|false|null)(?![A-Za-z0-9_])/.exec(s.src.slice(s.pos, s.pos + 6));
    if (word !== null) {
      s.pos += word[0].length;
      return word[0] === 'null' ? null : word[0] === 'true';
    }
    const n = s.readNumber();
    if (n === null) s.fail(what);
    return n;
  }
}
