// Prints an AST back to canonical JSONPath text (for messages, and so parse∘format can be tested).

import type { Json } from '../types.js';
import type { FilterExpr, Operand, PathExpr, Segment, Selector } from './ast.js';

/** Canonical text for a path; `parseJsonPath(formatJsonPath(ast))` yields an equal AST. */
export function formatJsonPath(path: PathExpr): string {
  return (path.start === 'root' ? '$' : '@') + path.segments.map(formatSegment).join('');
}

const BARE_KEY = /^[A-Za-z_#/\\][A-Za-z0-9_\-/\\#]*$/;

function formatSegment(segment: Segment): string {
  const [only] = segment.selectors;
  const dots = segment.kind === 'descendant' ? '..' : '.';
  if (segment.selectors.length === 1 && only !== undefined) {
    if (only.kind === 'wildcard') return `${dots}*`;
    if (only.kind === 'name' && BARE_KEY.test(only.name) && only.name !== 'length') return dots + only.name;
  }
  const inner = segment.selectors.map(formatSelector).join(',');
  return (segment.kind === 'descendant' ? '..' : '') + `[${inner}]`;
}

function formatSelector(sel: Selector): string {
  switch (sel.kind) {
    case 'name': return quote(sel.name);
    case 'index': return String(sel.index);
    case 'wildcard': return '*';
    case 'slice': {
      const part = (n: number | null): string => (n === null ? '' : String(n));
      return `${part(sel.start)}:${part(sel.end)}${sel.step === null ? '' : `:${sel.step}`}`;
    }
    case 'filter': return `?(${formatFilter(sel.test)})`;
  }
}

/** Operands of `&&` that are `||` get parentheses; `!` always wraps its operand to stay unambiguous. */
export function formatFilter(e: FilterExpr): string {
  switch (e.kind) {
    case 'or': return e.operands.map(formatFilter).join(' || ');
    case 'and': return e.operands.map((o) => (o.kind === 'or' ? `(${formatFilter(o)})` : formatFilter(o))).join(' && ');
    case 'not': return `!(${formatFilter(e.operand)})`;
    case 'exists': return formatJsonPath(e.path);
    case 'compare': {
      const right = e.op === '~=' && e.right.kind === 'literal' && typeof e.right.value === 'string'
        ? `'${e.right.value.replace(/'/g, "\\'")}'` // regex text is kept raw, see Scanner.readString
        : formatOperand(e.right);
      return `${formatOperand(e.left)} ${e.op} ${right}`;
    }
  }
}

function formatOperand(o: Operand): string {
  return o.kind === 'path' ? formatJsonPath(o) : formatLiteral(o.value);
}

function formatLiteral(v: Json): string {
  if (typeof v === 'string') return quote(v);
  if (Array.isArray(v)) return `[${v.map(formatLiteral).join(', ')}]`;
  return JSON.stringify(v);
}

/** Single-quoted (the only form jsonpath-rust 0.3 reads), escaping quotes, backslashes and controls. */
function quote(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}
