// Editor markers from the preview's recipe error and the index's lint issues (plain data; the editor maps severities).
import type { ErrorPayload, LintIssue } from '../../../shared/contract/index.js';

export interface MarkerData {
  severity: 'error' | 'warning';
  message: string;
  source: string;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** Columns of a line's content (first non-blank to end), 1-based, end exclusive. */
function lineRange(lines: string[], line: number): { start: number; end: number } {
  const t = lines[line - 1] ?? '';
  const first = t.search(/\S/);
  return first < 0 ? { start: 1, end: t.length + 1 } : { start: first + 1, end: t.trimEnd().length + 1 };
}

function clampLine(lines: string[], line: number | undefined): number {
  if (line === undefined || !Number.isFinite(line)) return 1;
  return Math.min(Math.max(1, Math.trunc(line)), Math.max(1, lines.length));
}

function at(lines: string[], lineNo: number | undefined, column: number | undefined): Omit<MarkerData, 'severity' | 'message' | 'source'> {
  const line = clampLine(lines, lineNo);
  const t = lines[line - 1] ?? '';
  if (column !== undefined && column >= 1 && column <= t.length) {
    // Underline the token the error points at (up to the next blank), at least one character.
    const rest = t.slice(column - 1);
    const len = Math.max(1, rest.search(/\s/) < 0 ? rest.length : rest.search(/\s/));
    return { startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: column + len };
  }
  const r = lineRange(lines, line);
  return { startLineNumber: line, startColumn: r.start, endLineNumber: line, endColumn: Math.max(r.end, r.start + 1) };
}

/**
 * Markers for the current text. Lint issues that name only a rule are placed at that rule's line
 * (`ruleLines`); issues with no location at all go on line 1 so they are never silently lost.
 */
export function recipeMarkers(text: string, error: ErrorPayload | null, lint: LintIssue[], ruleLines: ReadonlyMap<number, number> = new Map()): MarkerData[] {
  const lines = text.split('\n');
  const out: MarkerData[] = [];
  if (error) out.push({ severity: 'error', message: error.message, source: `recipe (${error.code})`, ...at(lines, error.line, error.column) });
  for (const issue of lint) {
    const line = issue.line ?? (issue.rule !== undefined ? ruleLines.get(issue.rule) : undefined);
    out.push({ severity: issue.severity, message: issue.message, source: `lint: ${issue.code}`, ...at(lines, line, undefined) });
  }
  return out;
}
