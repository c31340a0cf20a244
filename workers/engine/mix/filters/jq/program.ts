// The jq programs Assay actually runs: the user's (rewritten) expression wrapped to give one output line per document.
import type { RuleRole } from '../types.js';
import { STRICT_PRELUDE } from './strict-index.js';

/**
 * Dolma's truthiness (spec §3.4): null/false and 0 are false, strings, arrays and objects are true
 * when non-empty. (jaq also counts *unmodified non-integer input numbers* such as `0.0` as true; the
 * documents reach us already parsed by JSON.parse, where `0.0` and `0` are the same number.)
 */
const TRUTHY_DEF =
  'def __assay_truthy: if type == "number" then . != 0 ' +
  'elif type == "string" or type == "array" or type == "object" then length > 0 ' +
  'else . != null and . != false end;';

/** The user's program on lines of its own, so a trailing `# comment` cannot swallow our closing parenthesis. */
const embed = (src: string): string => `(\n${src}\n)`;

/**
 * Per input line: `true`/`false` (does the rule match: ≥1 output and all (include) / any (exclude)
 * outputs truthy), or the error message as a JSON string. All of a document's outputs are gathered
 * inside `try`, so one document's error never mixes with another's results.
 */
export function ruleProgram(rewritten: string, role: RuleRole): string {
  const verdict = role === 'include' ? 'all' : 'any';
  return `${STRICT_PRELUDE}\n${TRUTHY_DEF}\ntry ([${embed(rewritten)} | __assay_truthy] | length > 0 and ${verdict}) catch (tostring)`;
}

/** Per input line: the array of all outputs, or the error message as a JSON string. */
export function selectorProgram(rewritten: string): string {
  return `${STRICT_PRELUDE}\ntry [${embed(rewritten)}] catch (tostring)`;
}

/** A program that compiles `program` (every definition and call resolved) but never runs it. */
export function compileOnly(program: string): string {
  return `if false then ${embed(program)} else empty end`;
}

/**
 * jq's compile diagnostics name lines of the wrapped program; report the first one against the
 * user's own `userLines` lines (the wrapper adds one line before them; an error found at our closing
 * parenthesis is reported at the user's last line) and without shell advice.
 */
export function compileMessage(stderr: string, userLines = Infinity): string {
  const first = stderr.split('\n').find((l) => l.startsWith('jq: error')) ?? stderr.split('\n')[0] ?? '';
  return first
    .replace(/^jq: error: /, '')
    .replace(' (Unix shell quoting issues?)', '')
    .replace(/, line (\d+):?$/, (_m, n: string) => `, line ${Math.min(userLines, Math.max(1, Number(n) - 1))}`)
    .trim();
}
