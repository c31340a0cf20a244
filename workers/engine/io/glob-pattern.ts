// One path component of a glob pattern, compiled with the Rust `glob` crate's syntax (0.3).
import { RE2JS } from 're2js';
import { AssayError } from '../errors.js';

export interface ComponentPattern {
  /** The component text as written. */
  source: string;
  /** Set when the component has no metacharacters: matched by a direct lookup, not a listing. */
  literal: string | null;
  /** `**`: zero or more directories. */
  recursive: boolean;
  /** Whether the component starts with a literal `.` (the crate then also offers `.` and `..`). */
  leadingDot: boolean;
  test(name: string): boolean;
}

/** Whether a pattern has any glob metacharacter (`*`, `?`, `[`); `]` alone is literal, as in the crate. */
export function hasGlob(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/**
 * Compiles one `/`-free component. Errors mirror `Pattern::new`: more than two `*`, a `**` that is
 * not the whole component, an unclosed `[`. Matching options are the crate defaults `glob()` uses:
 * case-sensitive, and `*`/`?`/`[...]` may match a leading dot (hidden files are not special).
 */
export function compileComponent(source: string, pattern: string): ComponentPattern {
  const fail = (msg: string): never => {
    throw new AssayError('CONFIG', `invalid glob pattern ${JSON.stringify(pattern)}: ${msg}`);
  };
  const chars = Array.from(source);
  if (!hasGlob(source)) return { source, literal: source, recursive: false, leadingDot: chars[0] === '.', test: (n) => n === source };
  let re = '';
  for (let i = 0; i < chars.length; ) {
    const c = chars[i] ?? '';
    if (c === '?') {
      re += '.';
      i++;
    } else if (c === '*') {
      let n = 0;
      while (chars[i + n] === '*') n++;
      if (n > 2) fail('wildcards are either regular `*` or recursive `**`');
      if (n === 2 && chars.length !== 2) fail('recursive wildcards must form a single path component');
      if (n === 2) return { source, literal: null, recursive: true, leadingDot: false, test: () => true };
      re += '.*';
      i++;
    } else if (c === '[') {
      // `]` right after `[` or `[!` belongs to the set, hence the search offsets (as in the crate).
      const negated = i + 4 <= chars.length && chars[i + 1] === '!';
      const from = negated ? i + 3 : i + 2;
      const close = negated || (i + 3 <= chars.length && chars[i + 1] !== '!') ? chars.indexOf(']', from) : -1;
      if (close === -1) fail(`invalid range pattern at character ${i}`);
      re += charClass(chars.slice(negated ? i + 2 : i + 1, close), negated);
      i = close + 1;
    } else {
      re += escapeChar(c);
      i++;
    }
  }
  // RE2, not RegExp: `*a*a*a*a*a*a*a*a*b` on a 50-character name backtracks for a minute in V8.
  const regex = RE2JS.compile(`(?s)^${re}$`);
  return { source, literal: null, recursive: false, leadingDot: chars[0] === '.', test: (n) => regex.test(n) };
}

/** `a-z` is a range when a `-` sits between two characters; a reversed range matches nothing. */
function charClass(set: string[], negated: boolean): string {
  let body = '';
  for (let i = 0; i < set.length; ) {
    const lo = set[i] ?? '';
    const hi = set[i + 2];
    if (hi !== undefined && set[i + 1] === '-') {
      if ((lo.codePointAt(0) ?? 0) <= (hi.codePointAt(0) ?? 0)) body += `${escapeChar(lo)}-${escapeChar(hi)}`;
      i += 3;
    } else {
      body += escapeChar(lo);
      i++;
    }
  }
  // `[]` matches nothing and `[^]` anything: exactly an empty within / except set.
  if (body === '') return negated ? '.' : '[^\\x{0}-\\x{10ffff}]';
  return negated ? `[^${body}]` : `[${body}]`;
}

function escapeChar(c: string): string {
  return `\\x{${(c.codePointAt(0) ?? 0).toString(16)}}`;
}
