// Vets and compiles `~=` regular expressions so that a recipe cannot stall the mixer (ReDoS).

/** Longest accepted `~=` pattern, in characters. */
export const MAX_REGEX_LENGTH = 1000;

/**
 * Compile a `~=` pattern to a JS RegExp, or return why it is refused.
 *
 * Why refuse anything: the mixer runs `~=` against every document's data, and JS regexes
 * backtrack. A pattern such as `(a+)+$` takes time exponential in the input length on a string
 * like "aaaa…b", so one bad rule could freeze a mix on a single long field. jsonpath-rust used
 * Rust's linear-time `regex` crate, which has no such failure mode; to stay safe with a
 * backtracking engine we reject the shapes that cause catastrophic backtracking:
 *  - a repeated group whose body itself repeats (`(a+)+`, `(a*)*`, `((ab)+c)*`, `(\w+\s?)*`) —
 *    conservative: it also refuses some harmless patterns like `(\d+\.)*`, which can be rewritten;
 *  - backreferences (`\1`, `\k<n>`), which Rust's regex does not support anyway.
 * Alternations with overlapping branches under a repeat (`(a|a)*`) are not detected; bounding
 * the pattern length keeps the remaining risk to patterns written deliberately.
 *
 * Rust-style leading inline flags `(?i)`, `(?m)`, `(?s)` (any combination) become JS flags; the
 * `u` flag is always on, matching Rust's Unicode-aware default. Like Rust's `is_match`, matching
 * is a search anywhere in the string unless the pattern anchors itself.
 */
export function compileGuardedRegex(pattern: string): RegExp | string {
  if (pattern.length > MAX_REGEX_LENGTH) {
    return `regex is ${pattern.length} characters long; the limit is ${MAX_REGEX_LENGTH}`;
  }
  let flags = 'u';
  let source = pattern;
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline !== null) {
    flags += [...new Set(inline[1])].join('');
    source = source.slice(inline[0].length);
  }
  const problem = findBacktrackingHazard(source);
  if (problem !== null) return problem;
  try {
    return new RegExp(source, flags);
  } catch (e) {
    return `invalid regex: ${(e as Error).message}`;
  }
}

interface Group {
  repeats: boolean; // the group body contains a repeating quantifier
}

/** Scan the pattern once, tracking per group whether its body contains a repeat. */
function findBacktrackingHazard(src: string): string | null {
  const stack: Group[] = [{ repeats: false }];
  let lastGroupRepeats = false; // the atom just before the cursor was a group whose body repeats
  let afterQuantifier = false;
  for (let i = 0; i < src.length; i++) {
    const c = src.charAt(i);
    const top = stack[stack.length - 1] as Group;
    if (c === '\\') {
      const next = src.charAt(i + 1);
      if (/[1-9]/.test(next) || (next === 'k' && src.charAt(i + 2) === '<')) {
        return `backreferences are not supported in regex (offset ${i})`;
      }
      i++;
      lastGroupRepeats = false;
      afterQuantifier = false;
    } else if (c === '[') {
      i = skipClass(src, i);
      lastGroupRepeats = false;
      afterQuantifier = false;
    } else if (c === '(') {
      stack.push({ repeats: false });
      lastGroupRepeats = false;
      afterQuantifier = false;
    } else if (c === ')') {
      const closed = stack.length > 1 ? (stack.pop() as Group) : top;
      const parent = stack[stack.length - 1] as Group;
      parent.repeats ||= closed.repeats;
      lastGroupRepeats = closed.repeats;
      afterQuantifier = false;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      const q = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i)) : null;
      if (c === '{' && q === null) {
        lastGroupRepeats = false; // a literal brace
        continue;
      }
      if (c === '?' && afterQuantifier) {
        afterQuantifier = false; // lazy modifier, not a quantifier
        continue;
      }
      const repeats = c === '*' || c === '+' || (q !== null && repeatsBraces(q));
      if (repeats && lastGroupRepeats) {
        return `nested quantifier (a repeated group that itself repeats, like '(a+)+') at regex offset ${i} can take exponential time`;
      }
      if (repeats) top.repeats = true;
      if (q !== null) i += q[0].length - 1;
      lastGroupRepeats = false;
      afterQuantifier = true;
    } else {
      lastGroupRepeats = false;
      afterQuantifier = false;
    }
  }
  return null;
}

/** `{n,}` and `{n,m}` with m ≥ 2 repeat; `{0,1}`, `{1}` do not. */
function repeatsBraces(q: RegExpExecArray): boolean {
  if (q[2] === undefined) return Number(q[1]) >= 2;
  return q[3] === '' || q[3] === undefined || Number(q[3]) >= 2;
}

/** Index of the `]` closing the character class opened at `open` (or the last index). */
function skipClass(src: string, open: number): number {
  for (let i = open + 1; i < src.length; i++) {
    const c = src.charAt(i);
    if (c === '\\') i++;
    else if (c === ']') return i;
  }
  return src.length - 1;
}
