// Python `re.search` for user patterns: on RE2 in linear time when RE2 can run it, else a backtracking RegExp under a hard time budget.
import { AssayError } from '../../../errors.js';
import { compileRe2Search } from './py-re2.js';
import { parsePythonRegex, toJsRegExp } from './py-regex.js';
import { BudgetedRegExp } from './regex-budget.js';

/** A backtracking search gets this long on any document, plus a microsecond per character (JS searches ordinary patterns at 100+ characters per microsecond). */
export const BUDGET_BASE_MS = 1000;
export const BUDGET_CHARS_PER_MS = 1000;
export const budgetMs = (chars: number): number => BUDGET_BASE_MS + Math.ceil(chars / BUDGET_CHARS_PER_MS);

export interface PySearch {
  /** `re2`: linear time; `backtracking`: a JS RegExp in a worker thread, bounded per document. */
  readonly engine: 're2' | 'backtracking';
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
  try {
    new RegExp(js.source, js.flags);
  } catch (e) {
    throw new AssayError('CONFIG', `invalid regex ${JSON.stringify(pattern)}: ${(e as Error).message}`, { field, cause: e });
  }
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
