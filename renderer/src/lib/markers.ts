// Editor markers from the preview's recipe error, the index's lint issues and a refused run (plain data; the editor maps severities).
import type { ErrorPayload, LintIssue } from '../../../shared/contract/index.js';
import type { Refusal } from './runCheck.js';

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

function at(lines: string[], lineNo: number | undefined, column: number | undefined, endColumn?: number): Omit<MarkerData, 'severity' | 'message' | 'source'> {
  const line = clampLine(lines, lineNo);
  const t = lines[line - 1] ?? '';
  if (column !== undefined && endColumn !== undefined && column >= 1 && endColumn > column && column <= t.length) {
    return { startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: Math.min(endColumn, t.length + 1) };
  }
  if (column !== undefined && column >= 1 && column <= t.length) {
    // Underline the token the error points at (up to the next blank), at least one character.
    const rest = t.slice(column - 1);
    const len = Math.max(1, rest.search(/\s/) < 0 ? rest.length : rest.search(/\s/));
    return { startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: column + len };
  }
  const r = lineRange(lines, line);
  return { startLineNumber: line, startColumn: r.start, endLineNumber: line, endColumn: Math.max(r.end, r.start + 1) };
}

export interface MarkerExtras {
  /** Why the last run was refused (only pass it while the text is the one refused). */
  refused?: Refusal | null;
  /** The line the user last edited: a parse error reported further down also marks it. */
  lastEditLine?: number | null;
}

/** Errors whose reported line is where the parser gave up, not necessarily where the mistake is. */
const PLACED_EXACTLY = new Set(['outside-workspace', 'FORBIDDEN']);

/**
 * Markers for the current text. Lint issues that name only a rule are placed at that rule's line
 * (`ruleLines`); issues with no location at all go on line 1 so they are never silently lost. The same
 * message at the same place is marked once (the preview and the lint often report one parse error twice).
 */
export function recipeMarkers(text: string, error: ErrorPayload | null, lint: LintIssue[], ruleLines: ReadonlyMap<number, number> = new Map(), extras: MarkerExtras = {}): MarkerData[] {
  const lines = text.split('\n');
  const out: MarkerData[] = [];
  const seen = new Set<string>();
  /** The first line a parse-like error is reported at. */
  let parseLine: number | null = null;
  const add = (m: MarkerData, parseLike: boolean): void => {
    const k = `${m.startLineNumber}:${m.message}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(m);
    if (parseLike && m.severity === 'error' && (parseLine === null || m.startLineNumber < parseLine)) parseLine = m.startLineNumber;
  };
  const r = extras.refused;
  if (r) add({ severity: 'error', message: `run refused: ${r.message}`, source: `run check (${r.code})`, ...at(lines, r.line, r.column, r.endColumn) }, r.line !== undefined && !PLACED_EXACTLY.has(r.code));
  if (error) add({ severity: 'error', message: error.message, source: `recipe (${error.code})`, ...at(lines, error.line, error.column) }, error.line !== undefined && !PLACED_EXACTLY.has(error.code));
  for (const issue of lint) {
    const line = issue.line ?? (issue.rule !== undefined ? ruleLines.get(issue.rule) : undefined);
    add({ severity: issue.severity, message: issue.message, source: `lint: ${issue.code}`, ...at(lines, line, issue.column, issue.endColumn) }, issue.code === 'syntax' && line !== undefined);
  }
  const edited = extras.lastEditLine;
  if (parseLine !== null && edited != null && edited >= 1 && edited < parseLine && edited <= lines.length) {
    add({ severity: 'error', message: `the error is reported at line ${parseLine}; you last edited line ${edited}, where the mistake often is`, source: 'recipe (last edit)', ...at(lines, edited, undefined) }, false);
  }
  return out;
}
