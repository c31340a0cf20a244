// Compiles `~=` regular expressions on RE2 (re2js): Rust `regex` syntax and classes, matching in time linear in the input.
import { RE2JS } from 're2js';

/** Longest accepted `~=` pattern, in characters (RE2 also bounds the compiled program). */
export const MAX_REGEX_LENGTH = 1000;

/** What the evaluators need: an unanchored search, like Rust's `Regex::is_match`. */
export interface LinearRegex {
  test(input: string): boolean;
}

/*
 * Why RE2: the mixer and the preview run `~=` against every document, and a backtracking engine
 * (JS RegExp) takes exponential time on patterns like `(a|aa)+$`. jsonpath-rust uses Rust's
 * `regex` crate, which is an RE2-style automaton engine with the same syntax family and the same
 * absence of backreferences and lookaround, so RE2 keeps Dolma's semantics *and* its guarantee.
 *
 * Where RE2 (Go syntax) and Rust's `regex` differ, the pattern is rewritten or refused:
 *  - Rust's `\d \s \w` (and negations) are Unicode-aware, RE2's are ASCII: they are rewritten to
 *    the Unicode classes Rust uses (Nd, White_Space, Alphabetic+M+Nd+Pc+Join_Control).
 *  - Rust's nested classes and class set operations (`[a[b]]`, `&&`, `--`, `~~`) would be read
 *    literally by RE2: refused.
 *  - `\b`/`\B` stay RE2's ASCII word boundaries (Rust's are Unicode): they agree on ASCII text.
 * Backreferences, lookaround and flags such as `(?x)` fail in both engines; RE2 names them.
 */

const WORD_BODY = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}\\x{200D}';
const OUTSIDE: Readonly<Record<string, string>> = {
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  s: '\\p{White_Space}',
  S: '\\P{White_Space}',
  w: `[${WORD_BODY}]`,
  W: `[^${WORD_BODY}]`,
};
const INSIDE: Readonly<Record<string, string>> = { d: '\\p{Nd}', D: '\\P{Nd}', s: '\\p{White_Space}', S: '\\P{White_Space}', w: WORD_BODY };

/** Compile a `~=` pattern, or return why it is refused (the caller adds the rule and its place). */
export function compileLinearRegex(pattern: string): LinearRegex | string {
  if (pattern.length > MAX_REGEX_LENGTH) return `regex is ${pattern.length} characters long; the limit is ${MAX_REGEX_LENGTH}`;
  const source = toRe2(pattern);
  if (source.error !== undefined) return source.error;
  try {
    return RE2JS.compile(source.text);
  } catch (e) {
    return `invalid regex: ${explain((e as Error).message)}`;
  }
}

/** RE2's parse errors, with a word on the constructs Rust's regex lacks too. */
function explain(message: string): string {
  const m = message.replace(/^error parsing regexp: /, '');
  if (/`\(\?[=!]|`\(\?<[=!]|invalid named capture: `\(\?<[=!]/.test(m)) return `${m} (lookaround is not supported: Rust's regex, which Dolma uses, has none)`;
  if (/invalid escape sequence: `\\([1-9]|k)/.test(m)) return `${m} (backreferences are not supported: Rust's regex, which Dolma uses, has none)`;
  return m;
}

/** Rewrite Rust-only spellings to RE2 (one pass, aware of escapes and classes). */
function toRe2(src: string): { text: string; error?: string } {
  if (!/[\\[]/.test(src)) return { text: src };
  let out = '';
  for (let i = 0; i < src.length; ) {
    const c = src.charAt(i);
    if (c === '\\') {
      const x = src.charAt(i + 1);
      out += OUTSIDE[x] ?? src.slice(i, i + 2);
      i += 2;
    } else if (c === '[') {
      const cls = rewriteClass(src, i);
      if (cls.error !== undefined) return { text: '', error: cls.error };
      out += cls.text;
      i = cls.end;
    } else {
      out += c;
      i++;
    }
  }
  return { text: out };
}

/** The class opened at `open`: its RE2 text and the index after its `]`. */
function rewriteClass(src: string, open: number): { text: string; end: number; error?: string } {
  let i = open + 1;
  const negated = src.charAt(i) === '^';
  if (negated) i++;
  let body = '';
  if (src.charAt(i) === ']') {
    body += '\\]'; // a leading `]` is literal in both engines
    i++;
  }
  let notWord = false;
  for (; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === ']') {
      const cls = body === '' ? '' : `[${negated ? '^' : ''}${body}]`;
      if (!notWord) return { text: cls, end: i + 1 };
      // `[\Wx]` = `\W` or `[x]`: RE2 cannot put a complement of a union inside a class.
      return { text: `(?:${OUTSIDE.W}${cls === '' ? '' : `|${cls}`})`, end: i + 1 };
    }
    if (c === '\\') {
      const x = src.charAt(i + 1);
      if (x === 'W') {
        if (negated) return { text: '', end: i, error: `\\W inside a negated character class is not supported (regex offset ${i}); use \\w outside it` };
        notWord = true;
      } else body += INSIDE[x] ?? src.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      const posix = /^\[:\^?[a-z]+:\]/.exec(src.slice(i, i + 16));
      if (posix === null) return { text: '', end: i, error: `nested character classes are not supported (regex offset ${i})` };
      body += posix[0];
      i += posix[0].length - 1;
    } else if ((c === '&' || c === '-' || c === '~') && src.charAt(i + 1) === c) {
      return { text: '', end: i, error: `character class set operations ('${c}${c}') are not supported (regex offset ${i})` };
    } else body += c;
  }
  return { text: '', end: src.length, error: `missing closing ] for the character class at regex offset ${open}` };
}
