// Runs a parsed Python pattern on RE2 (re2js) in linear time, keeping Python's Unicode `\b` and `$` exact.
import { RE2JS } from 're2js';
import type { AssertKind, PyFlags, PyRegex } from './py-regex.js';

/*
 * RE2 has Python's syntax family, but its `\b` is ASCII-only (Python's is Unicode), and it has
 * no zero-width test for Python's `$` ("at the end, or before a final newline"). Both only look
 * at the characters next to a position, so where a document needs them, RE2 runs on an
 * *interleaved* copy of the text: every code point c becomes F c G, where F and G are flag
 * characters, "w" when c is a Python word character and "-" otherwise, so RE2's ASCII `\b`
 * between G (of the character before) and F (of the character after) is Python's `\b` exactly.
 * A newline flag carries the line anchors: F is "\n" before a final newline (or any newline with
 * re.M), so RE2's `(?m:$)` is Python's `$`; with re.M G is "\n" after a newline, for `(?m:^)`.
 * Each atom of the pattern consumes a whole triple (`.X.`), and the match is aligned on triples
 * from the start, so the flags are only ever seen by the assertions.
 * Documents that need neither (ASCII text, where both `\b` agree, and no final newline under a
 * `$`) run on the text as it is.
 */

/** `empty`: the program for an empty text, where `\B` never matches (sre: "\B" fails on an empty string, up to Python 3.13). */
type Mode = 'direct' | 'interleaved' | 'empty';
const NEVER = '[^\\x{0}-\\x{10ffff}]';
const RE2_ASSERT: Record<Mode, (f: PyFlags) => Record<AssertKind, string>> = {
  direct: (f) => ({ '^': f.m ? '(?m:^)' : '\\A', $: f.m ? '(?m:$)' : '\\z', A: '\\A', Z: '\\z', b: '\\b', B: '\\B' }),
  interleaved: (f) => ({ '^': f.m ? '(?m:^)' : '\\A', $: '(?m:$)', A: '\\A', Z: '\\z', b: '\\b', B: '\\B' }),
  empty: () => ({ '^': '\\A', $: '\\z', A: '\\A', Z: '\\z', b: NEVER, B: NEVER }),
};

/** The RE2 source of a parsed pattern, or what it uses that RE2 has not. Captures become plain groups: only whether it matches counts. */
export function toRe2Source(re: PyRegex, mode: Mode): { source: string } | { needs: string } {
  const asserts = RE2_ASSERT[mode](re.flags);
  let out = '';
  const closers: string[] = [];
  for (const tok of re.tokens) {
    if (tok.t === 'atom') out += mode === 'interleaved' ? `(?:(?s:.)${tok.re2}(?s:.))` : tok.re2;
    else if (tok.t === 'open') {
      if (tok.kind === 'ahead' || tok.kind === 'not-ahead') return { needs: 'lookahead' };
      // A lookbehind sits in a group, so a quantifier after it (which Python allows) applies to the group.
      const behind = tok.kind === 'behind' ? '(?:(?<=' : tok.kind === 'not-behind' ? '(?:(?<!' : null;
      out += behind ?? '(?:';
      closers.push(behind ? '))' : ')');
    } else if (tok.t === 'close') out += closers.pop() as string;
    else if (tok.t === 'alt') out += '|';
    else if (tok.t === 'quant') out += tok.text;
    else if (tok.t === 'assert') out += asserts[tok.kind];
    else return { needs: 'backreferences' };
  }
  const body = mode === 'interleaved' ? `\\A(?s:.{3})*?(?:${out})` : out;
  return { source: (re.flags.i ? '(?i)' : '') + body };
}

export interface LinearSearch {
  /** Python's `re.search(pattern, text) is not None`. */
  test(text: string): boolean;
}

/** RE2 programs for a pattern, or why it cannot run on RE2 (a construct RE2 lacks, or RE2 refusing it, e.g. a repeat over 1000). */
export function compileRe2Search(re: PyRegex): LinearSearch | { why: string } {
  const sources = (['direct', 'interleaved', 'empty'] as const).map((mode) => toRe2Source(re, mode));
  for (const s of sources) if ('needs' in s) return { why: s.needs };
  const flags = re.tokens.some((t) => t.t === 'open' && (t.kind === 'behind' || t.kind === 'not-behind')) ? RE2JS.LOOKBEHINDS : 0;
  let programs: RE2JS[];
  try {
    programs = sources.map((s) => RE2JS.compile((s as { source: string }).source, flags));
  } catch (e) {
    return { why: `RE2 refuses it (${(e as Error).message.replace(/^error parsing regexp: /, '')})` };
  }
  const [plain, woven, empty] = programs as [RE2JS, RE2JS, RE2JS];
  const boundary = re.tokens.some((t) => t.t === 'assert' && (t.kind === 'b' || t.kind === 'B'));
  const endDollar = !re.flags.m && re.tokens.some((t) => t.t === 'assert' && t.kind === '$');
  const multiline = re.flags.m;
  return {
    test(text) {
      if (text === '') return empty.test(text);
      const weave = (boundary && NON_ASCII.test(text)) || (endDollar && text.endsWith('\n'));
      return weave ? woven.test(interleave(text, multiline)) : plain.test(text);
    },
  };
}

const NON_ASCII = /[^\p{ASCII}]/u;
const WORD_FLAG = 0x77; // "w"
const OTHER_FLAG = 0x2d; // "-"
const NEWLINE = 0x0a;
const PY_WORD_CHAR = /^[\p{L}\p{N}_]$/u;
/** Flag of each BMP code point, filled on first use (0: not yet known). */
const bmpFlag = new Uint16Array(0x10000);
function flagOf(cp: number): number {
  if (cp < 0x10000) {
    let f = bmpFlag[cp] as number;
    if (f === 0) bmpFlag[cp] = f = PY_WORD_CHAR.test(String.fromCharCode(cp)) ? WORD_FLAG : OTHER_FLAG;
    return f;
  }
  return PY_WORD_CHAR.test(String.fromCodePoint(cp)) ? WORD_FLAG : OTHER_FLAG;
}

/** The text as F c G triples (see above). Lone surrogates stay single code points, as re2js reads them. */
export function interleave(text: string, multiline: boolean): string {
  const n = text.length;
  const buf = new Uint16Array(n * 3);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const cu = text.charCodeAt(i);
    if (cu === NEWLINE) {
      buf[k++] = multiline || i === n - 1 ? NEWLINE : OTHER_FLAG;
      buf[k++] = cu;
      buf[k++] = multiline ? NEWLINE : OTHER_FLAG;
      continue;
    }
    let flag: number;
    if (cu >= 0xd800 && cu <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const low = text.charCodeAt(++i);
      flag = flagOf(0x10000 + ((cu - 0xd800) << 10) + (low - 0xdc00));
      buf[k++] = flag;
      buf[k++] = cu;
      buf[k++] = low;
    } else {
      flag = flagOf(cu);
      buf[k++] = flag;
      buf[k++] = cu;
    }
    buf[k++] = flag;
  }
  // A raw UTF-16 copy: lone surrogates survive (a TextDecoder would replace them).
  return Buffer.from(buf.buffer, 0, k * 2).toString('utf16le');
}
