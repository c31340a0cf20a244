// Before a run: the one problem that must stop it (the host's job check, or an error the lint finds), with its place.
import type { ErrorPayload, JobCheck, LintIssue } from '../../../shared/contract/index.js';
import { locateField } from './fieldLocation.js';

/** Why a run was refused, placed in the recipe text (1-based; `endColumn` exclusive) when the place is known. */
export interface Refusal {
  code: string;
  message: string;
  line?: number;
  column?: number;
  endColumn?: number;
}

export interface CheckAnswers {
  /** `jobs.check`'s answer, or why it could not be asked. */
  check: { ok: true; value: JobCheck } | { ok: false; error: ErrorPayload };
  /** `preview.lint`'s issues; null when the lint could not run (no index yet): the job check still decides. */
  lint: LintIssue[] | null;
}

const fromLint = (i: LintIssue): Refusal => ({
  code: i.code,
  message: i.message,
  ...(i.line !== undefined && { line: i.line }),
  ...(i.column !== undefined && { column: i.column }),
  ...(i.endColumn !== undefined && { endColumn: i.endColumn }),
});

/**
 * The refusal, or null when the recipe may be saved and run. An output path outside the workspace wins (the lint
 * places it to the column); then the job check's own error (located by its field when it names no line); then any
 * other lint error.
 */
export async function refusalOf(text: string, a: CheckAnswers): Promise<Refusal | null> {
  const lintErrors = (a.lint ?? []).filter((i) => i.severity === 'error');
  const outside = lintErrors.find((i) => i.code === 'outside-workspace');
  if (outside) return fromLint(outside);
  const err = a.check.ok ? (a.check.value.ok ? null : (a.check.value.error ?? { code: 'CONFIG', message: 'the job check refused the recipe' })) : a.check.error;
  if (err) {
    const r: Refusal = { code: err.code, message: err.message };
    if (err.line !== undefined) {
      r.line = err.line;
      if (err.column !== undefined) r.column = err.column;
    } else if (err.field !== undefined) {
      const at = await locateField(text, err.field).catch(() => null);
      if (at) Object.assign(r, at);
    }
    return r;
  }
  const other = lintErrors[0];
  return other ? fromLint(other) : null;
}
