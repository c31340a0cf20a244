// Comparisons, truthiness and jq's value operations on columns, each mirroring its evaluator exactly.
import { compareCodePoints } from '../../io/index.js';
import type { Interner } from '../store/interner.js';
import { T } from '../store/tags.js';
import { bools, countAt, isArray, isStuck, vcol, type VCol } from './vcol.js';

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A literal operand: its tag and number (STR: interned code). */
export interface Lit {
  tag: number;
  num: number;
}

const TRI = (b: boolean): number => (b ? T.TRUE : T.FALSE);

/** Relation of two numbers under an operator. */
function rel(op: CmpOp, a: number, b: number): boolean {
  switch (op) {
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '>=': return a >= b;
    case '==': return a === b;
    case '!=': return a !== b;
  }
}

/**
 * JSONPath `left op right` (predicate.ts): a missing operand makes it false; `< <= > >=` need two
 * numbers; `==`/`!=` are JSON equality (strings by interned code, unknown for coded-out strings and
 * for two arrays or objects).
 */
export function jsonpathCompare(op: CmpOp, a: VCol, b: VCol): VCol {
  const n = a.tag.length;
  const out = bools(n);
  const ordered = op !== '==' && op !== '!=';
  for (let g = 0; g < n; g++) {
    const ta = a.tag[g] as number;
    const tb = b.tag[g] as number;
    let r: number;
    if (ta === T.ABSENT || tb === T.ABSENT) r = T.FALSE;
    else if (ta === T.UNKNOWN || tb === T.UNKNOWN || ta === T.ANY || tb === T.ANY) r = T.UNKNOWN;
    else if (ordered) r = ta === T.NUM && tb === T.NUM ? TRI(rel(op, a.num[g] as number, b.num[g] as number)) : T.FALSE;
    else {
      const eq = jsonEq(ta, a.num[g] as number, tb, b.num[g] as number);
      r = eq === null ? T.UNKNOWN : TRI(op === '==' ? eq : !eq);
    }
    out.tag[g] = r;
  }
  return out;
}

/** The hot case, `path op number`, without a literal column. */
export function jsonpathCompareNumber(op: CmpOp, a: VCol, k: number): VCol {
  const n = a.tag.length;
  const out = bools(n);
  const tag = a.tag;
  const num = a.num;
  const o = out.tag;
  if (op === '<' || op === '<=' || op === '>' || op === '>=') {
    for (let g = 0; g < n; g++) {
      const t = tag[g] as number;
      o[g] = t === T.NUM ? TRI(rel(op, num[g] as number, k)) : t === T.UNKNOWN || t === T.ANY ? T.UNKNOWN : T.FALSE;
    }
    return out;
  }
  for (let g = 0; g < n; g++) {
    const t = tag[g] as number;
    if (t === T.ABSENT) o[g] = T.FALSE;
    else if (t === T.UNKNOWN || t === T.ANY) o[g] = T.UNKNOWN;
    else {
      const eq = t === T.NUM && num[g] === k;
      o[g] = TRI(op === '==' ? eq : !eq);
    }
  }
  return out;
}

/** JSON equality of two present values: true/false, or null when the columns cannot tell. */
function jsonEq(ta: number, na: number, tb: number, nb: number): boolean | null {
  const aArr = isArray(ta);
  const bArr = isArray(tb);
  if (aArr || bArr || ta === T.OBJ || tb === T.OBJ) {
    if (ta === T.EMPTY && tb === T.EMPTY) return true;
    if ((aArr && bArr) || (ta === T.OBJ && tb === T.OBJ)) return null;
    return false;
  }
  if (ta !== tb) return false;
  if (ta === T.NUM) return na === nb;
  if (ta === T.STR) return na < 0 || nb < 0 ? null : na === nb;
  return true; // null, true, false
}

/** jq's total order of kinds: null < false < true < numbers < strings < arrays < objects. */
function jqRank(t: number): number {
  switch (t) {
    case T.NULL: return 0;
    case T.FALSE: return 1;
    case T.TRUE: return 2;
    case T.NUM: return 3;
    case T.STR: return 4;
    case T.OBJ: return 6;
    default: return isArray(t) ? 5 : -1;
  }
}

/** jq `a op b` (jv_cmp / jv_equal): any kinds compare; unknown only inside strings, arrays and objects. */
export function jqCompare(op: CmpOp, a: VCol, b: VCol, interner: Interner): VCol {
  const n = a.tag.length;
  const out = bools(n);
  for (let g = 0; g < n; g++) {
    const ta = a.tag[g] as number;
    const tb = b.tag[g] as number;
    let r: number;
    if (ta === T.ERROR || tb === T.ERROR) r = T.ERROR;
    else if (isStuck(ta) || isStuck(tb) || ta === T.ANY || tb === T.ANY) r = ta === T.NOOUT || tb === T.NOOUT ? T.NOOUT : T.UNKNOWN;
    else {
      const c = jqOrder(ta, a.num[g] as number, tb, b.num[g] as number, interner);
      r = c === null ? T.UNKNOWN : TRI(rel(op, c, 0));
    }
    out.tag[g] = r;
  }
  return out;
}

function jqOrder(ta: number, na: number, tb: number, nb: number, interner: Interner): number | null {
  const ra = jqRank(ta);
  const rb = jqRank(tb);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 3: return na < nb ? -1 : na > nb ? 1 : 0;
    case 4: {
      if (na < 0 || nb < 0) return null;
      if (na === nb) return 0;
      return compareCodePoints(interner.strings[na] as string, interner.strings[nb] as string);
    }
    case 5: return ta === T.EMPTY && tb === T.EMPTY ? 0 : null;
    case 6: return null;
    default: return 0;
  }
}

/** Dolma's truthiness of a filter output (mix/filters/jq/program.ts): 0, "", [], {} are false too. */
export function dolmaTruthy(v: VCol, interner: Interner): VCol {
  const n = v.tag.length;
  const out = bools(n);
  for (let g = 0; g < n; g++) {
    const t = v.tag[g] as number;
    let r: number;
    switch (t) {
      case T.TRUE: case T.SPANS: case T.ODDARR: case T.SPAN0: r = T.TRUE; break;
      case T.FALSE: case T.NULL: case T.EMPTY: case T.NOOUT: r = T.FALSE; break;
      case T.NUM: r = TRI(v.num[g] !== 0); break;
      case T.STR: {
        const c = v.num[g] as number;
        r = v.count ? TRI((v.count[g] as number) > 0) : c < 0 ? T.UNKNOWN : TRI(interner.strings[c] !== '');
        break;
      }
      case T.ERROR: r = T.ERROR; break;
      default: r = T.UNKNOWN;
    }
    out.tag[g] = r;
  }
  return out;
}

/** jq truthiness (`if`, `and`, `or`, `not`): only null and false are false. */
export function jqTruth(t: number): number {
  if (t === T.NULL || t === T.FALSE) return T.FALSE;
  if (t === T.ERROR || t === T.NOOUT) return t;
  if (t === T.UNKNOWN || t === T.ANY || t === T.ABSENT) return T.UNKNOWN;
  return T.TRUE;
}

/** jq `a and b` / `a or b`: left first; the right side is only evaluated (and may only fail) when needed. */
export function jqLogic(op: 'and' | 'or', a: VCol, b: VCol): VCol {
  const n = a.tag.length;
  const out = bools(n);
  const short = op === 'and' ? T.FALSE : T.TRUE;
  for (let g = 0; g < n; g++) {
    const x = jqTruth(a.tag[g] as number);
    if (x === short || x === T.ERROR || x === T.NOOUT || x === T.UNKNOWN) out.tag[g] = x;
    else out.tag[g] = jqTruth(b.tag[g] as number);
  }
  return out;
}

export function jqNot(v: VCol): VCol {
  const n = v.tag.length;
  const out = bools(n);
  for (let g = 0; g < n; g++) {
    const x = jqTruth(v.tag[g] as number);
    out.tag[g] = x === T.TRUE ? T.FALSE : x === T.FALSE ? T.TRUE : x;
  }
  return out;
}

/** jq `length`: null 0, numbers their absolute value, strings code points, arrays elements; booleans fail. */
export function jqLength(v: VCol, interner: Interner): VCol {
  const n = v.tag.length;
  const out = vcol(n);
  for (let g = 0; g < n; g++) {
    const t = v.tag[g] as number;
    let r: number = T.NUM;
    let num = 0;
    switch (t) {
      case T.NULL: break;
      case T.NUM: num = Math.abs(v.num[g] as number); break;
      case T.STR: {
        const c = v.num[g] as number;
        if (v.count) num = v.count[g] as number;
        else if (c >= 0) num = [...(interner.strings[c] as string)].length;
        else r = T.UNKNOWN;
        break;
      }
      case T.SPANS: case T.ODDARR: case T.EMPTY: {
        const c = countAt(v, g);
        if (c >= 0) num = c;
        else if (t !== T.EMPTY) r = T.UNKNOWN;
        break;
      }
      case T.SPAN0: num = 3; break;
      case T.TRUE: case T.FALSE: r = T.ERROR; break;
      case T.ERROR: case T.NOOUT: r = t; break;
      default: r = T.UNKNOWN;
    }
    out.tag[g] = r;
    out.num[g] = num;
  }
  return out;
}

/** jq `type`, as an interned string. */
export function jqType(v: VCol, interner: Interner): VCol {
  const names = ['null', 'boolean', 'number', 'string', 'array', 'object'].map((s) => interner.code(s));
  const n = v.tag.length;
  const out = vcol(n);
  for (let g = 0; g < n; g++) {
    const t = v.tag[g] as number;
    const rank = jqRank(t);
    if (rank < 0) {
      out.tag[g] = t === T.ERROR || t === T.NOOUT ? t : T.UNKNOWN;
      continue;
    }
    out.tag[g] = T.STR;
    out.num[g] = names[rank === 0 ? 0 : rank <= 2 ? 1 : rank - 1] as number;
  }
  return out;
}

export type ArithOp = '+' | '-' | '*' | '/';

/** jq arithmetic on two numbers (and `null + x`); everything else is left to the exact evaluator. */
export function jqArith(op: ArithOp, a: VCol, b: VCol): VCol {
  const n = a.tag.length;
  const out = vcol(n);
  for (let g = 0; g < n; g++) {
    const ta = a.tag[g] as number;
    const tb = b.tag[g] as number;
    const x = a.num[g] as number;
    const y = b.num[g] as number;
    let r: number = T.NUM;
    let v = 0;
    if (ta === T.ERROR || tb === T.ERROR) r = T.ERROR;
    else if (ta === T.NOOUT || tb === T.NOOUT) r = T.NOOUT;
    else if (ta === T.NUM && tb === T.NUM) {
      if (op === '/' && y === 0) r = T.UNKNOWN;
      else v = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : x / y;
    } else if (op === '+' && ta === T.NULL && tb === T.NUM) v = y;
    else if (op === '+' && tb === T.NULL && ta === T.NUM) v = x;
    else r = T.UNKNOWN;
    out.tag[g] = r;
    out.num[g] = v;
  }
  return out;
}

/** jq `if c then a else b end`, per document; errors of the branch not taken do not count. */
export function jqIf(c: VCol, a: VCol, b: VCol): VCol {
  const n = c.tag.length;
  const known = (x: VCol): boolean => x.count !== undefined || x.unitCount === true;
  const out: VCol = { ...vcol(n), count: known(a) && known(b) ? new Uint32Array(n) : undefined };
  for (let g = 0; g < n; g++) {
    const x = jqTruth(c.tag[g] as number);
    const src = x === T.TRUE ? a : x === T.FALSE ? b : null;
    if (src === null) {
      out.tag[g] = x;
      continue;
    }
    out.tag[g] = src.tag[g] as number;
    out.num[g] = src.num[g] as number;
    if (out.count) out.count[g] = Math.max(0, countAt(src, g));
  }
  return out;
}
