// Python `re.search` for user patterns: in linear time (RE2, or JS RegExp on straight patterns) when possible, else a backtracking RegExp under a hard time budget.
import { AssayError } from '../../../errors.js';
import { compileRe2Search } from './py-re2.js';
import { parsePythonRegex, toJsRegExp, type PyRegex } from './py-regex.js';
import { BudgetedRegExp } from './regex-budget.js';

/** A backtracking search gets this long on any document, plus a microsecond per character (JS searches ordinary patterns at 100+ characters per microsecond). */
export const BUDGET_BASE_MS = 1000;
export const BUDGET_CHARS_PER_MS = 1000;
export const budgetMs = (chars: number): number => BUDGET_BASE_MS + Math.ceil(chars / BUDGET_CHARS_PER_MS);

/**
 * A pattern of at most this many atoms and anchors, with no repeat, alternation, group or `\b`, is
 * *straight*: a backtracking search tries each start position once per atom, so it is linear
 * (at most 64 steps a character), and V8 runs it in the caller's thread, skipping through the text
 * on its literals (`(?i)copyright`: 0.3 ms per MB, against 22 ms on RE2).
 */
const STRAIGHT_MAX_TOKENS = 64;
const isStraight = (re: PyRegex): boolean =>
  re.tokens.length <= STRAIGHT_MAX_TOKENS && re.tokens.every((t) => t.t === 'atom' || (t.t === 'assert' && t.kind !== 'b' && t.kind !== 'B'));

export interface PySearch {
  /** `re2`: linear time; `regexp`: a straight pattern on JS RegExp, linear too; `backtracking`: a JS RegExp in a worker thread, bounded per document. */
  readonly engine: 're2' | 'regexp' | 'backtracking';
  /** Why the pattern cannot run on RE2 (null on RE2). */
  readonly why: string | null;
  /** `re.search(pattern, text) is not None`; throws a FILTER error naming the option and the pattern when the budget runs out. */
  test(text: string): boolean;
  close(): void;
}

/** Compile a user pattern (the `field` option's value), refusing what Python would refuse or cannot be translated, as CONFIG errors. */
export function compilePythonSearch(pattern: string, field = 'regex_exp'): PySearch {
  const parsed = parsePythonRegex(pattern, field);
  const js = toJsRegExp(parsed);
  let regexp: RegExp;
  try {
    regexp = new RegExp(js.source, js.flags);
  } catch (e) {
    throw new AssayError('CONFIG', `invalid regex ${JSON.stringify(pattern)}: ${(e as Error).message}`, { field, cause: e });
  }
  if (isStraight(parsed)) return { engine: 'regexp', why: null, test: (text) => regexp.test(text), close: () => undefined };
  const re2 = compileRe2Search(parsed);
  if (!('why' in re2)) return { engine: 're2', why: null, test: (text) => re2.test(text), close: () => undefined };
  const why = re2.why;
  const bounded = new BudgetedRegExp(js.source, js.flags);
  return {
    engine: 'backtracking',
    why,
    test(text) {
      const budget = budgetMs(text.length);
      const r = bounded.test(text, budget);
      if (r.kind === 'ok') return r.hit;
      const what =
        r.kind === 'timeout'
          ? `took longer than its budget of ${budget} ms on this document (${text.length} characters)`
          : `failed on this document (${r.message})`;
      throw new AssayError(
        'FILTER',
        `regex ${JSON.stringify(pattern)} ${what}. It runs on a backtracking engine because of its ${why}, and backtracking can take exponential time; without ${why} it would run on RE2, in linear time`,
        { field },
      );
    },
    close: () => bounded.close(),
  };
}
