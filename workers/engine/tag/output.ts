// Turn tagger spans into Dolma attribute rows: keys, code-point offsets, 5-decimal scores, compact JSON.
import { AssayError } from '../errors.js';
import { pyRound } from '../text/python.js';
import type { TagSpan } from './types.js';

/** Dolma `make_variable_name`: every char outside [A-Za-z0-9_] becomes `_`; a leading digit is an error. */
export function makeVariableName(name: string): string {
  const v = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (/^[0-9]/.test(v)) throw new AssayError('CONFIG', `'${name}' cannot be an attribute name part: it starts with a digit`, { field: 'taggers' });
  return v;
}

/** Python `round(score, 5)`; the exact path only runs when a tie is possible. */
export function roundScore(x: number): number {
  if (Number.isInteger(x) || !Number.isFinite(x)) return x;
  const y = x * 1e5;
  const frac = Math.abs(y - Math.trunc(y));
  if (Math.abs(frac - 0.5) > 1e-6) return Math.round(y) / 1e5 + 0 || 0;
  return pyRound(x, 5);
}

/**
 * Code-point offset of every UTF-16 offset of `text` (length + 1 entries; an offset inside a pair maps to its
 * code point), or null when the text has no surrogates and the two coincide.
 */
export function codePointMap(text: string): Uint32Array | null {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  const map = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) map[++i] = cp; // an offset inside a pair points at its code point
    cp++;
  }
  map[text.length] = cp;
  return map;
}

/** Maps UTF-16 offsets of `text` to code-point offsets (null when the text has no surrogates: the identity). */
export function utf16ToCodePoints(text: string): ((i: number) => number) | null {
  const map = codePointMap(text);
  return map === null ? null : (i) => map[Math.max(0, Math.min(i, text.length))] as number;
}

/** `<prefix>__<type>` keys already made, per prefix: a pass writes the same few dozen keys for every document. */
const keyCache = new Map<string, Map<string, string>>();
/** Types remembered per prefix; past it (types made from data, say) keys are built each time. */
const KEYS_PER_PREFIX = 4096;

function keysOf(prefix: string): Map<string, string> {
  let keys = keyCache.get(prefix);
  if (keys === undefined) keyCache.set(prefix, (keys = new Map()));
  return keys;
}

/** `<prefix>__<type>` for an attribute key (made once per prefix and type while fewer than KEYS_PER_PREFIX). */
export function attributeKeyOf(prefix: string, type: string): string {
  return attributeKey(keysOf(prefix), prefix, type);
}

function attributeKey(keys: Map<string, string>, prefix: string, type: string): string {
  let key = keys.get(type);
  if (key === undefined) {
    key = `${prefix}__${makeVariableName(type)}`;
    if (keys.size < KEYS_PER_PREFIX) keys.set(type, key);
  }
  return key;
}

/**
 * Offset `i` of span `s` as written: converted to code points (clamped to the text) unless the tagger gave code points.
 * `cpMap` is codePointMap's, null when the two units coincide.
 */
export function spanOffset(s: TagSpan, i: number, cpMap: Uint32Array | null): number {
  return cpMap === null || s.codePoints ? i : cpMap[Math.max(0, Math.min(i, cpMap.length - 1))]!;
}

/**
 * Group one tagger's spans into `{ "<prefix>__<type>": [[start, end, score], …] }` (Dolma
 * `group_output`): types in `defaults` appear even when empty; an empty type is skipped.
 */
export function groupSpans(
  out: Record<string, [number, number, number][]>,
  prefix: string,
  spans: readonly TagSpan[],
  defaults: readonly string[] | undefined,
  cpMap: Uint32Array | null,
): void {
  const keys = keysOf(prefix);
  if (defaults) for (const t of defaults) out[attributeKey(keys, prefix, t)] ??= [];
  // A table rather than a function per document: a new closure per document makes V8 recompile this loop.
  for (const s of spans) {
    if (s.type === '') continue;
    const key = attributeKey(keys, prefix, s.type);
    (out[key] ??= []).push([spanOffset(s, s.start, cpMap), spanOffset(s, s.end, cpMap), roundScore(s.score)]);
  }
}

/** A tagger output row in msgspec's field order: `{"id", "attributes", "source"}`. */
export function attributeRow(id: unknown, attributes: Record<string, unknown>, source: unknown): string {
  return attributeRowOf(id, JSON.stringify(attributes), source);
}

/** The same row, its attributes object already JSON text (tag/rows.ts writes it in C). */
export function attributeRowOf(id: unknown, attributes: string, source: unknown): string {
  return `{"id":${JSON.stringify(id ?? null)},"attributes":${attributes}${source === undefined ? '' : `,"source":${JSON.stringify(source)}`}}`;
}
