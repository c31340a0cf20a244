// Parses the jq subset real recipes use (paths, comparisons, and/or/not, length, type, if, arithmetic) into a tree.
import { tokenize, type Token } from '../../mix/filters/jq/tokenize.js';
import { Unsupported } from './plan.js';

export type JqStep = { kind: 'member'; key: string; optional: boolean } | { kind: 'index'; index: number; optional: boolean };

export type JqAst =
  | { k: 'path'; base: JqAst | null; steps: JqStep[] }
  | { k: 'lit'; value: number | string | boolean | null; text: string; offset: number }
  | { k: 'pipe'; a: JqAst; b: JqAst }
  | { k: 'cmp'; op: '==' | '!=' | '<' | '<=' | '>' | '>='; a: JqAst; b: JqAst }
  | { k: 'logic'; op: 'and' | 'or'; a: JqAst; b: JqAst }
  | { k: 'arith'; op: '+' | '-' | '*' | '/'; a: JqAst; b: JqAst }
  | { k: 'call'; name: 'length' | 'not' | 'type' }
  | { k: 'if'; cond: JqAst; then: JqAst; else: JqAst };

const CMP = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Parse, or throw Unsupported naming the first construct outside the subset. */
export function parseJq(src: string): JqAst {
  const toks = tokenize(src).filter((t) => t.kind !== 'ws' && t.kind !== 'comment');
  const p = new Parser(toks);
  const ast = p.pipe();
  if (!p.done()) throw new Unsupported(`\`${p.peek()?.text}\` is outside the compiled jq subset`);
  return ast;
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  done(): boolean {
    return this.i >= this.toks.length;
  }

  peek(): Token | undefined {
    return this.toks[this.i];
  }

  private is(text: string, kind?: Token['kind']): boolean {
    const t = this.toks[this.i];
    return t !== undefined && t.text === text && (kind === undefined || t.kind === kind);
  }

  private expect(text: string): void {
    if (!this.is(text)) throw new Unsupported(`expected \`${text}\``);
    this.i++;
  }

  pipe(): JqAst {
    let a = this.or();
    while (this.is('|', 'op')) {
      this.i++;
      a = { k: 'pipe', a, b: this.or() };
    }
    return a;
  }

  private or(): JqAst {
    let a = this.and();
    while (this.is('or', 'keyword')) {
      this.i++;
      a = { k: 'logic', op: 'or', a, b: this.and() };
    }
    return a;
  }

  private and(): JqAst {
    let a = this.cmp();
    while (this.is('and', 'keyword')) {
      this.i++;
      a = { k: 'logic', op: 'and', a, b: this.cmp() };
    }
    return a;
  }

  private cmp(): JqAst {
    const a = this.add();
    const t = this.peek();
    if (t?.kind === 'op' && CMP.has(t.text)) {
      this.i++;
      const b = this.add();
      const n = this.peek();
      if (n?.kind === 'op' && CMP.has(n.text)) throw new Unsupported('chained comparisons are not valid jq');
      return { k: 'cmp', op: t.text as '==', a, b };
    }
    return a;
  }

  private add(): JqAst {
    let a = this.mul();
    for (let t = this.peek(); t?.kind === 'op' && (t.text === '+' || t.text === '-'); t = this.peek()) {
      this.i++;
      a = { k: 'arith', op: t.text as '+', a, b: this.mul() };
    }
    return a;
  }

  private mul(): JqAst {
    let a = this.postfix();
    for (let t = this.peek(); t?.kind === 'op' && (t.text === '*' || t.text === '/'); t = this.peek()) {
      this.i++;
      a = { k: 'arith', op: t.text as '*', a, b: this.postfix() };
    }
    return a;
  }

  private postfix(): JqAst {
    const t = this.peek();
    if (t === undefined) throw new Unsupported('unexpected end of expression');
    if (t.kind === 'op' && t.text === '-') {
      const n = this.toks[this.i + 1];
      if (n?.kind !== 'num') throw new Unsupported('unary minus is evaluated exactly');
      this.i += 2;
      return this.number(n, t.start);
    }
    let base: JqAst | null;
    const steps: JqStep[] = [];
    if (t.kind === 'dot' || t.kind === 'field') {
      base = null;
      if (t.kind === 'field') {
        this.i++;
        steps.push({ kind: 'member', key: t.text.slice(1), optional: this.optional() });
      } else {
        this.i++;
        const s = this.peek();
        if (s?.kind === 'str') {
          this.i++;
          steps.push({ kind: 'member', key: this.string(s), optional: this.optional() });
        } else if (this.is('[', 'open')) steps.push(this.bracket());
      }
    } else base = this.primary();
    for (;;) {
      const s = this.peek();
      if (s?.kind === 'field') {
        this.i++;
        steps.push({ kind: 'member', key: s.text.slice(1), optional: this.optional() });
      } else if (s?.kind === 'dot' && this.toks[this.i + 1]?.kind === 'str') {
        this.i++;
        const str = this.peek() as Token;
        this.i++;
        steps.push({ kind: 'member', key: this.string(str), optional: this.optional() });
      } else if (this.is('[', 'open')) steps.push(this.bracket());
      else break;
    }
    if (this.is('?', 'question')) throw new Unsupported('`?` after a non-index term is evaluated exactly');
    if (base === null || steps.length > 0) return { k: 'path', base, steps };
    return base;
  }

  private optional(): boolean {
    if (!this.is('?', 'question')) return false;
    this.i++;
    return true;
  }

  private bracket(): JqStep {
    this.expect('[');
    let neg = false;
    if (this.is('-', 'op')) {
      neg = true;
      this.i++;
    }
    const t = this.peek();
    this.i++;
    this.expect(']');
    if (t?.kind === 'str' && !neg) return { kind: 'member', key: this.string(t), optional: this.optional() };
    if (t?.kind !== 'num' || !/^\d+$/.test(t.text)) throw new Unsupported('only integer and string literals are compiled inside [ ]');
    const v = Number(t.text);
    if (!Number.isSafeInteger(v)) throw new Unsupported('index out of range');
    return { kind: 'index', index: neg ? -v : v, optional: this.optional() };
  }

  private primary(): JqAst {
    const t = this.peek() as Token;
    if (t.kind === 'num') {
      this.i++;
      return this.number(t, null);
    }
    if (t.kind === 'str') {
      this.i++;
      return { k: 'lit', value: this.string(t), text: t.text, offset: t.start };
    }
    if (t.kind === 'open' && t.text === '(') {
      this.i++;
      const e = this.pipe();
      this.expect(')');
      return e;
    }
    if (t.kind === 'ident') {
      this.i++;
      if (t.text === 'true' || t.text === 'false') return { k: 'lit', value: t.text === 'true', text: t.text, offset: t.start };
      if (t.text === 'null') return { k: 'lit', value: null, text: t.text, offset: t.start };
      if ((t.text === 'length' || t.text === 'not' || t.text === 'type') && !this.is('(', 'open')) return { k: 'call', name: t.text };
      throw new Unsupported(`\`${t.text}\` is evaluated exactly`);
    }
    if (t.kind === 'keyword' && t.text === 'if') return this.ifThen('if');
    throw new Unsupported(`\`${t.text}\` is evaluated exactly`);
  }

  /** `if c then a (elif c2 then b)* (else d)? end`; an `elif` is an `if` nested in the else branch. */
  private ifThen(keyword: 'if' | 'elif'): JqAst {
    this.expect(keyword);
    const cond = this.pipe();
    this.expect('then');
    const then = this.pipe();
    if (this.is('elif', 'keyword')) return { k: 'if', cond, then, else: this.ifThen('elif') };
    let other: JqAst = { k: 'path', base: null, steps: [] };
    if (this.is('else', 'keyword')) {
      this.i++;
      other = this.pipe();
    }
    this.expect('end');
    return { k: 'if', cond, then, else: other };
  }

  /**
   * jq 1.7 may keep a literal's decimal text for comparisons; a literal with at most 15 significant
   * digits round-trips through a double, so comparing doubles gives the same answer.
   */
  private number(t: Token, minusAt: number | null): JqAst {
    const negative = minusAt !== null;
    const m = /^(\d*)(?:\.(\d*))?$/.exec(t.text);
    const digits = m ? ((m[1] ?? '') + (m[2] ?? '')).replace(/^0+/, '').replace(/0+$/, '') : null;
    if (digits === null || digits.length > 15) throw new Unsupported(`the number literal ${t.text} is evaluated exactly`);
    const v = Number(t.text);
    return { k: 'lit', value: negative ? -v : v, text: (negative ? '-' : '') + t.text, offset: minusAt ?? t.start };
  }

  private string(t: Token): string {
    const parts = t.parts ?? [];
    if (parts.some((p) => p.kind !== 'literal')) throw new Unsupported('string interpolation is evaluated exactly');
    try {
      return JSON.parse(t.text) as string;
    } catch {
      throw new Unsupported('this string literal is evaluated exactly');
    }
  }
}
