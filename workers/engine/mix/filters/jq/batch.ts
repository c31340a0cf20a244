// Evaluates a wrapped jq program over documents in batches: one jq run per batch, one result line per document.
import { stringifyJson } from '../../json.js';
import { FilterEvalError, type Json } from '../types.js';
import { compileMessage } from './program.js';
import type { JqRunner, RunResult } from './runner.js';

export interface BatchOptions {
  timeoutMs: number;
  /** Documents per jq run. */
  batchSize: number;
}

/**
 * A batch's time budget grows with its size (1 s + 1 s per 2 M characters), capped by the rule's
 * `timeoutMs`: ordinary rules run at tens of MB/s, so this leaves them a wide margin, while a
 * runaway batch (a regex Oniguruma backtracks on in every document, an endless loop) fails
 * within about 2 s instead of the full cap.
 */
const BASE_BUDGET_MS = 1_000;
const BUDGET_MS_PER_CHAR = 0.0005;

/** Keeps a batch's JSON text (and jq's in-memory copy of it) modest even when documents are large. */
const MAX_BATCH_CHARS = 8 * 1024 * 1024;

/**
 * Run `program` (which must print exactly one JSON line per input line) over `docs`; returns the
 * parsed line of each document. Throws FilterEvalError on a timeout or interpreter failure (naming
 * the first document of the batch) and when jq rejects a document outright.
 */
export function runBatches(runner: JqRunner, program: string, expr: string, docs: readonly Json[], opts: BatchOptions): unknown[] {
  // Not JSON.stringify: it overflows the stack on documents nested a few thousand levels deep.
  const texts = docs.map((d) => stringifyJson(d));
  const results: unknown[] = new Array<unknown>(docs.length);
  let start = 0;
  while (start < docs.length) {
    let end = start + 1;
    let chars = texts[start]!.length;
    while (end < docs.length && end - start < opts.batchSize && chars + texts[end]!.length <= MAX_BATCH_CHARS) chars += texts[end++]!.length + 1;
    runChunk(runner, program, expr, texts, start, end, Math.min(opts.timeoutMs, Math.round(BASE_BUDGET_MS + chars * BUDGET_MS_PER_CHAR)), results);
    start = end;
  }
  return results;
}

function runChunk(runner: JqRunner, program: string, expr: string, texts: string[], start: number, end: number, timeoutMs: number, results: unknown[]): void {
  const which = end - start === 1 ? `document ${start}` : `documents ${start}–${end - 1}`;
  let r: RunResult;
  try {
    r = runner.run(program, texts.slice(start, end).join('\n'), timeoutMs);
  } catch (e) {
    throw new FilterEvalError(start, expr, `cannot run jq on ${which}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (r.kind === 'timeout') throw new FilterEvalError(start, expr, `the jq expression exceeded its time budget of ${timeoutMs} ms on ${which}`, end - start);
  if (r.kind === 'fatal') throw new FilterEvalError(start, expr, `jq failed on ${which}: ${r.message}`);
  const lines = r.kind === 'ok' ? r.stdout.split('\n') : [];
  if (r.kind === 'ok' && lines.length === end - start) {
    lines.forEach((l, k) => (results[start + k] = JSON.parse(l) as unknown));
    return;
  }
  // jq stopped early (e.g. a document nested deeper than its parser allows): find the culprit alone.
  if (end - start > 1) {
    for (let i = start; i < end; i++) runChunk(runner, program, expr, texts, i, i + 1, timeoutMs, results);
    return;
  }
  const why = r.kind === 'jq-error' ? compileMessage(r.stderr) : 'jq produced no result';
  throw new FilterEvalError(start, expr, `jq failed on ${which}: ${why}`);
}
