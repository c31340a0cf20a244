// Parse a Python `re` pattern (str, Unicode) into engine-neutral tokens, and translate it into an equivalent JS `u` RegExp.
import { AssayError } from '../../../errors.js';
import { literal, parseClass, parseEscape, PY_WORD, unsupported, type Atom } from './py-regex-atoms.js';

export interface PyFlags {
  i: boolean;
  m: boolean;
  s: boolean;
}
export type GroupKind = 'capture' | 'group' | 'ahead' | 'not-ahead' | 'behind' | 'not-behind';
export type AssertKind = '^' | '$' | 'A' | 'Z' | 'b' | 'B';
/** One element of the pattern; an `atom` consumes exactly one code point. */
export type PyToken =
  | ({ t: 'atom' } & Atom)
  | { t: 'open'; kind: GroupKind }
  | { t: 'close' }
  | { t: 'alt' }
  | { t: 'quant'; text: string }
  | { t: 'assert'; kind: AssertKind }
  | { t: 'backref'; group: number };
export interface PyRegex {
  pattern: string;
  field: string;
  flags: PyFlags;
  tokens: PyToken[];
}

const FLAGS = /^\(\?([aiLmsux]+)\)/;
const GROUP_OPENERS: ReadonlyArray<[string, GroupKind]> = [
  ['(?:', 'group'],
  ['(?=', 'ahead'],
  ['(?!', 'not-ahead'],
  ['(?<=', 'behind'],
  ['(?<!', 'not-behind'],
];

/** Parse with sre_parse's rules (escapes, `{` read literally when it is no quantifier, `\12` vs octal `\123`). */
export function parsePythonRegex(pattern: string, field = 'regex_exp'): PyRegex {
  const bad = (what: string) => new AssayError('CONFIG', `invalid regex ${JSON.stringify(pattern)}: ${what}`, { field });
  let src = pattern;
  const flags: PyFlags = { i: false, m: false, s: false };
  for (let m = FLAGS.exec(src); m !== null; m = FLAGS.exec(src)) {
    for (const f of m[1] as string) {
      if (f === 'i' || f === 'm' || f === 's') flags[f] = true;
      else if (f !== 'u') throw unsupported(`inline flag (?${f})`, field);
    }
    src = src.slice(m[0].length);
  }
  const tokens: PyToken[] = [];
  const open: number[] = []; // group numbers of the open groups (0: not capturing)
  const names = new Map<string, number>();
  let groups = 0;
  const backref = (group: number) => {
    if (group > groups) throw bad(`invalid group reference ${group}`);
    if (open.includes(group)) throw bad(`cannot refer to an open group (${group})`);
    tokens.push({ t: 'backref', group });
  };
  const quantifiable = () => {
    const last = tokens[tokens.length - 1];
    if (last === undefined || last.t === 'open' || last.t === 'alt' || last.t === 'assert') throw bad('nothing to repeat');
    if (last.t === 'quant') throw bad('multiple repeat');
  };
  /** A quantifier spelled `srcLen` characters at `at`, written `text` for both engines; returns what it consumed. */
  const quant = (text: string, at: number, srcLen: number): number => {
    quantifiable();
    const next = src[at + srcLen];
    if (next === '+') throw unsupported('possessive quantifiers (*+, ++, ?+, {m,n}+)', field);
    tokens.push({ t: 'quant', text: next === '?' ? `${text}?` : text });
    return next === '?' ? srcLen + 1 : srcLen;
  };
  for (let i = 0; i < src.length; ) {
    const c = src[i] as string;
    if (c === '\\') {
      const e = parseEscape(src, i, field, bad);
      if ('assert' in e) tokens.push({ t: 'assert', kind: e.assert });
      else if ('backref' in e) backref(e.backref);
      else tokens.push({ t: 'atom', ...e.atom });
      i += e.length;
    } else if (c === '[') {
      const cls = parseClass(src, i, field, bad);
      tokens.push({ t: 'atom', ...cls.atom });
      i = cls.end;
    } else if (c === '(') {
      const opener = GROUP_OPENERS.find(([s]) => src.startsWith(s, i));
      if (opener) {
        tokens.push({ t: 'open', kind: opener[1] });
        open.push(0);
        i += opener[0].length;
      } else if (src.startsWith('(?P<', i)) {
        const m = /^\(\?P<([\p{L}_][\p{L}\p{N}_]*)>/u.exec(src.slice(i));
        if (!m) throw bad(`bad group name at position ${i}`);
        if (names.has(m[1] as string)) throw bad(`redefinition of group name ${m[1]}`);
        names.set(m[1] as string, ++groups);
        tokens.push({ t: 'open', kind: 'capture' });
        open.push(groups);
        i += m[0].length;
      } else if (src.startsWith('(?P=', i)) {
        const end = src.indexOf(')', i);
        const group = end < 0 ? undefined : names.get(src.slice(i + 4, end));
        if (group === undefined) throw bad(`unknown group name in (?P=…) at position ${i}`);
        backref(group);
        i = end + 1;
      } else if (src.startsWith('(?#', i)) {
        const end = src.indexOf(')', i);
        if (end < 0) throw bad('missing ), unterminated comment');
        i = end + 1;
      } else if (src.startsWith('(?>', i)) throw unsupported('atomic groups (?>...)', field);
      else if (src.startsWith('(?(', i)) throw unsupported('conditional groups (?(id)yes|no)', field);
      else if (/^\(\?[aiLmsux-]+:/.test(src.slice(i))) throw unsupported('scoped inline flags (?flags:...)', field);
      else if (/^\(\?[aiLmsux]+\)/.test(src.slice(i))) throw bad(`global flags not at the start of the expression (position ${i})`);
      else if (src.startsWith('(?', i)) throw bad(`unknown extension ${src.slice(i, i + 3)}`);
      else {
        tokens.push({ t: 'open', kind: 'capture' });
        open.push(++groups);
        i++;
      }
    } else if (c === ')') {
      if (open.pop() === undefined) throw bad(`unbalanced parenthesis at position ${i}`);
      tokens.push({ t: 'close' });
      i++;
    } else if (c === '|') {
      tokens.push({ t: 'alt' });
      i++;
    } else if (c === '*' || c === '+' || c === '?') {
      i += quant(c, i, 1);
    } else if (c === '{' && quantifierAt(src, i) !== null) {
      const [text, lo, comma, hi] = quantifierAt(src, i) as unknown as [string, string, string | undefined, string | undefined];
      const min = lo === '' ? 0 : Number(lo);
      const max = comma === undefined ? min : hi === '' || hi === undefined ? Infinity : Number(hi);
      if (max < min) throw bad('min repeat greater than max repeat');
      i += quant(`{${min}${comma === undefined ? '' : `,${max === Infinity ? '' : max}`}}`, i, text.length);
    } else if (c === '^' || c === '$') {
      tokens.push({ t: 'assert', kind: c });
      i++;
    } else if (c === '.') {
      tokens.push({ t: 'atom', js: flags.s ? '[\\s\\S]' : '[^\\n]', re2: flags.s ? '(?s:.)' : '[^\\n]' });
      i++;
    } else {
      const cp = src.codePointAt(i) as number;
      tokens.push({ t: 'atom', ...literal(cp) });
      i += cp > 0xffff ? 2 : 1;
    }
  }
  if (open.length > 0) throw bad('missing ), unterminated subpattern');
  return { pattern, field, flags, tokens };
}

/** `{m}`, `{m,}`, `{,n}`, `{m,n}`, `{,}`; `{}` and anything else is literal text in Python. */
const QUANT = /^\{(\d*)(?:(,)(\d*))?\}/;
function quantifierAt(src: string, i: number): RegExpExecArray | null {
  const m = QUANT.exec(src.slice(i, i + 64));
  return m === null || m[0] === '{}' ? null : m;
}

const W = PY_WORD;
// `\A` and `\Z` are JS's `^` and `$` without the m flag (a lookbehind there would also be tried inside surrogate pairs).
const JS_ASSERT: Record<AssertKind, (f: PyFlags) => string> = {
  '^': (f) => (f.m ? '(?<![^\\n])' : '^'),
  $: (f) => (f.m ? '(?![^\\n])' : '(?=\\n?$)'),
  A: () => '^',
  Z: () => '$',
  b: () => `(?:(?<=[${W}])(?![${W}])|(?<![${W}])(?=[${W}]))`,
  // sre's `\B` fails on an empty string (up to Python 3.13): between two non-word characters it needs one of them to exist.
  B: () => `(?:(?<=[${W}])(?=[${W}])|(?<![${W}])(?![${W}])(?:(?<=[\\s\\S])|(?=[\\s\\S])))`,
};
// Lookarounds sit in a group: Python lets a quantifier follow one, JS's `u` mode does not.
const JS_OPEN: Record<GroupKind, string> = { capture: '(', group: '(?:', ahead: '(?:(?=', 'not-ahead': '(?:(?!', behind: '(?:(?<=', 'not-behind': '(?:(?<!' };
const isLookaround = (k: GroupKind): boolean => k !== 'capture' && k !== 'group';

/** The JS `u` RegExp source and flags of a parsed pattern (a backtracking engine: see py-search.ts for when it runs). */
export function toJsRegExp(re: PyRegex): { source: string; flags: string } {
  let out = '';
  const open: GroupKind[] = [];
  for (const tok of re.tokens) {
    if (tok.t === 'atom') out += tok.js;
    else if (tok.t === 'open') {
      out += JS_OPEN[tok.kind];
      open.push(tok.kind);
    } else if (tok.t === 'close') out += isLookaround(open.pop() as GroupKind) ? '))' : ')';
    else if (tok.t === 'alt') out += '|';
    else if (tok.t === 'quant') out += tok.text;
    else if (tok.t === 'assert') out += JS_ASSERT[tok.kind](re.flags);
    else out += `(?:\\${tok.group})`;
  }
  return { source: out, flags: re.flags.i ? 'iu' : 'u' };
}

/** A Python pattern as a JS RegExp (backtracking: only for trusted patterns and tests). */
export function pythonRegex(pattern: string, field = 'regex_exp'): RegExp {
  const { source, flags } = toJsRegExp(parsePythonRegex(pattern, field));
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw new AssayError('CONFIG', `invalid regex ${JSON.stringify(pattern)}: ${(e as Error).message}`, { field, cause: e });
  }
}
