import { describe, expect, it } from 'vitest';
import { JqSyntaxError, tokenize, type Token } from './tokenize.js';
import { buildTree, isGroup, sourceOf } from './tree.js';

const kinds = (src: string): string[] => tokenize(src).filter((t) => t.kind !== 'ws').map((t) => `${t.kind}:${t.text}`);
const joined = (tokens: Token[]): string => tokens.map((t) => t.text).join('');

describe('tokenize', () => {
  it('splits the lexical classes jq 1.7 has', () => {
    expect(kinds('.a."b"[0] | $x | @base64 "x" # c\n.. and 1.5e3 ?// $__loc__ | .if | if . then mod::f else .5 end')).toEqual([
      'field:.a', 'dot:.', 'str:"b"', 'open:[', 'num:0', 'close:]', 'op:|', 'var:$x', 'op:|', 'format:@base64', 'str:"x"',
      'comment:# c', 'rec:..', 'keyword:and', 'num:1.5e3', 'op:?//', 'var:$__loc__', 'op:|', 'field:.if', 'op:|',
      'keyword:if', 'dot:.', 'keyword:then', 'ident:mod::f', 'keyword:else', 'num:.5', 'keyword:end',
    ]);
  });

  it('keeps multi-character operators whole and `?` separate', () => {
    expect(kinds('.a? // 1 |= 2 != 3 <= 4 //= 5')).toEqual(['field:.a', 'question:?', 'op://', 'num:1', 'op:|=', 'num:2', 'op:!=', 'num:3', 'op:<=', 'num:4', 'op://=', 'num:5']);
  });

  it('reproduces the source exactly when the token texts are joined', () => {
    for (const src of ['.a  .b\t# x\n[.c , "d\\"e\\(.f | "g\\(.h)")"]', 'def f($x): $x; f(1)', '{a: 1, "b": 2, (.c): 3}', '']) {
      expect(joined(tokenize(src))).toBe(src);
    }
  });

  it('tokenizes string interpolations recursively, including nested strings', () => {
    const [t] = tokenize('"a\\("b\\(.c)")d\\n"');
    expect(t?.kind).toBe('str');
    expect(t?.parts?.map((p) => p.kind)).toEqual(['literal', 'interp', 'literal']);
    const interp = t?.parts?.[1];
    if (interp?.kind !== 'interp') throw new Error('expected an interpolation');
    const inner = interp.tokens[0];
    expect(inner?.kind).toBe('str');
    expect(inner?.parts?.[1]?.kind).toBe('interp');
    expect(t?.parts?.[2]).toEqual({ kind: 'literal', text: 'd\\n' });
  });

  it('ends an interpolation at its own closing parenthesis, not at an inner one', () => {
    const [t] = tokenize('"\\((.a | (1)))x"');
    const interp = t?.parts?.[0];
    expect(interp?.kind === 'interp' && joined(interp.tokens)).toBe('(.a | (1))');
  });

  it('ends comments at a newline only (a trailing backslash does not continue them, as in jq-web)', () => {
    expect(kinds('1 # c \\\ninput')).toEqual(['num:1', 'comment:# c \\', 'ident:input']);
    expect(kinds('1 # c\rinput')).toEqual(['num:1', 'comment:# c\rinput']);
  });

  it('treats `$` without a name and unknown characters as operators for jq to reject', () => {
    expect(kinds('$ ENV')).toEqual(['op:$', 'ident:ENV']);
    expect(kinds('!')).toEqual(['op:!']);
  });

  it('rejects unterminated strings and interpolations', () => {
    expect(() => tokenize('"abc')).toThrow(JqSyntaxError);
    expect(() => tokenize('"a\\(.b"')).toThrow(JqSyntaxError);
  });
});

describe('buildTree', () => {
  it('nests brackets and keeps the source', () => {
    const src = '.a[.b[0]] | {c: (.d)}';
    const tree = buildTree(tokenize(src));
    expect(tree.map(sourceOf).join('')).toBe(src);
    const idx = tree[1];
    expect(isGroup(idx) && idx.open.text).toBe('[');
  });

  it('rejects unbalanced or mismatched brackets', () => {
    expect(() => buildTree(tokenize('(.a'))).toThrow(/unclosed `\(`/);
    expect(() => buildTree(tokenize('.a)'))).toThrow(/unexpected `\)`/);
    expect(() => buildTree(tokenize('[.a}'))).toThrow(JqSyntaxError);
  });
});
