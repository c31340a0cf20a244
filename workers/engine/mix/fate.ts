// One definition of what happens to a document around the recipe's rules — line checks, attribute merge, span validation, min_text_length — shared by the mixer (and its ledger) and the index / preview (and its diff).
import { AssayError } from '../errors.js';
import { parseDocumentLine } from '../io/json.js';
import { jsonEqual } from './filters/jsonpath/index.js';
import type { Json } from './filters/types.js';
import { assignMembers, MAX_DOC_DEPTH, nestsDeeperThan, rustTrim, stringifyJson, TOO_DEEP, utf8Length } from './json.js';

export type Doc = Record<string, unknown>;

/** A document's fate in a stream: KEEP, or the index of the reason that dropped it (mix/compile.ts `CompiledStream.reasons`). */
export const KEEP = -1;

/**
 * Nesting past MAX_DOC_DEPTH takes more than that many `[` or `{` (counted in strings too, so an upper bound):
 * lines with fewer (all but hostile ones) need no walk of the parsed value. Counted with indexOf, which skips
 * the text between brackets natively.
 */
function mayNestTooDeep(text: string): boolean {
  if (text.length < 2 * (MAX_DOC_DEPTH + 1)) return false;
  let opened = 0;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++opened > MAX_DOC_DEPTH) return true;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++opened > MAX_DOC_DEPTH) return true;
  return false;
}

/**
 * A documents line as the mixer accepts it: a JSON object with an `id`, nested at most MAX_DOC_DEPTH
 * levels. Returns the document, or the bad-line error (never throws, so callers choose to skip or fail).
 */
export function checkDocumentLine(text: string, file: string, line: number): Doc | AssayError {
  let doc: Doc;
  try {
    doc = parseDocumentLine(text, file, line);
  } catch (e) {
    return e as AssayError;
  }
  if (!Object.hasOwn(doc, 'id')) return new AssayError('PARSE', "document has no 'id'", { file, line });
  if (mayNestTooDeep(text) && nestsDeeperThan(doc, MAX_DOC_DEPTH)) return new AssayError('PARSE', `document is ${TOO_DEEP}`, { file, line });
  return doc;
}

/**
 * An attribute line for the document `id` of `docsFile`: its `attributes` object, or the error. A
 * MISMATCH (another document's id) fails the run even under --skip-bad-lines; PARSE errors are bad lines.
 */
export function checkAttributeLine(text: string, id: Json, docsFile: string, attrFile: string, line: number): Doc | AssayError {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch (e) {
    return new AssayError('PARSE', `malformed JSON in attributes: ${(e as Error).message}`, { file: attrFile, line });
  }
  const r = rec as { id?: unknown; attributes?: unknown } | null;
  if (r === null || typeof r !== 'object' || !Object.hasOwn(r, 'id')) return new AssayError('PARSE', "attribute record has no 'id'", { file: attrFile, line });
  if (mayNestTooDeep(text) && nestsDeeperThan(r, MAX_DOC_DEPTH)) return new AssayError('PARSE', `attribute record is ${TOO_DEEP}`, { file: attrFile, line });
  if (r.id !== id && !jsonEqual(r.id as Json, id)) {
    return new AssayError('MISMATCH', `mismatched ids: documents file ${docsFile} has id ${stringifyJson(id)} but attributes file has ${stringifyJson(r.id)}`, {
      file: attrFile,
      line,
    });
  }
  if (r.attributes === null || typeof r.attributes !== 'object' || Array.isArray(r.attributes)) {
    return new AssayError('PARSE', "attribute record's 'attributes' is not an object", { file: attrFile, line });
  }
  return r.attributes as Doc;
}

/**
 * Dolma's merge: later attribute sets overwrite earlier keys, and the merged map extends the document's
 * own `attributes` object (or replaces a non-object one). With no sets the document is left as it is.
 */
export function mergeAttributeSets(doc: Doc, sets: readonly Doc[]): void {
  if (sets.length === 0) return;
  const merged: Doc = {};
  for (const s of sets) assignMembers(merged, s);
  const existing = doc.attributes;
  if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) assignMembers(existing as Doc, merged);
  else doc.attributes = merged;
}

/**
 * mergeAttributeSets for sets the caller owns (freshly parsed, used nowhere else): the same members in the
 * same order, but the sets are merged straight into the document's `attributes` (or, when it has none,
 * into the first set's own object) instead of through a new object per document.
 */
export function mergeOwnedAttributeSets(doc: Doc, sets: readonly Doc[]): void {
  if (sets.length === 0) return;
  const existing = doc.attributes;
  let k = 0;
  let into: Doc;
  if (existing !== null && typeof existing === 'object' && !Array.isArray(existing)) into = existing as Doc;
  else doc.attributes = into = sets[k++] as Doc;
  for (; k < sets.length; k++) assignMembers(into, sets[k] as Doc);
}

export interface SelectedSpan {
  start: number;
  end: number;
  score: number;
}

/** A span as the mixer accepts it: `[start, end, score, …]` with non-negative integer offsets. */
export function isSpan(v: Json): v is [number, number, number] {
  return Array.isArray(v) && v.length >= 3 && Number.isInteger(v[0]) && Number.isInteger(v[1]) && (v[0] as number) >= 0 && (v[1] as number) >= 0 && typeof v[2] === 'number';
}

/**
 * What a span_replacement selector selected, validated as the mixer validates it: null selects nothing
 * (and the replacement is then never looked at), anything but a list of spans is an error message.
 */
export function selectedSpans(value: Json, field: string, expr: string): SelectedSpan[] | string | null {
  if (value === null) return null;
  if (!Array.isArray(value)) return `${field}.span \`${expr}\` selected a ${typeof value}, not a list of spans`;
  const out: SelectedSpan[] = [];
  for (const span of value) {
    if (!isSpan(span)) return `${field}.span \`${expr}\` selected ${JSON.stringify(span)}, which is not a [start, end, score] span with integer offsets`;
    out.push({ start: span[0], end: span[1], score: span[2] });
  }
  return out;
}

/** A computed (`$…` jq) replacement must yield a string: the string, or the error message. */
export function computedReplacement(value: Json | undefined, field: string, expr: string): string | { error: string } {
  return typeof value === 'string' ? value : { error: `${field}.replacement \`${expr}\` must yield a string, got ${JSON.stringify(value)}` };
}

/** What `output.min_text_length` measures: the UTF-8 length of the Rust-trimmed (replaced) text, as Dolma does. */
export function trimmedUtf8Length(text: string): number {
  return utf8Length(rustTrim(text));
}
