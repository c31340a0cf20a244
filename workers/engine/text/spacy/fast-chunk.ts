// The tokenizer's fast path: a chunk of plain words joined by hyphens, with one-unit affixes and `'s`, split by hand.
import type { OffsetBuffer } from './offsets.js';
import * as U from './plain.js';

// Module-local copies: under tsx an imported binding is a getter call on every use, which the loops would pay.
const [ALPHA, CLOSE, DOT_AFTER, INNER, OPEN, PLAIN, SPACE] = [U.ALPHA, U.CLOSE, U.DOT_AFTER, U.INNER, U.OPEN, U.PLAIN, U.SPACE];

/** What can make spaCy tokenize a chunk otherwise: the special cases, and the matcher's one-token patterns. */
export interface SpecialHashes {
  specials: U.HashFilter;
  oneToken: U.HashFilter;
  /** The longest special case: no longer run can spell one (and checking stays linear in the chunk). */
  longest: number;
}

/** Whether text[i] (i > 0) is a one-unit suffix wherever the chunk starts. */
function closes(text: string, i: number, cls: Uint8Array): boolean {
  const u = text.charCodeAt(i);
  return (cls[u]! & CLOSE) !== 0 || (u === 0x2e && (cls[text.charCodeAt(i - 1)]! & DOT_AFTER) !== 0);
}

/** Whether text[, end) ends with `'s` or `’s` (either case): a suffix. */
function isApostropheS(text: string, end: number): boolean {
  const last = text.charCodeAt(end - 1);
  const before = text.charCodeAt(end - 2);
  return (last === 0x73 || last === 0x53) && (before === 0x27 || before === 0x2019);
}

/**
 * Tokens of the chunk starting at `a` when it is `[open] core ['s] [close [close]]` then whitespace or the end, the
 * core made of segments joined by `-` between ALPHA units, each segment PLAIN at both ends and INNER between. spaCy
 * strips the affixes one a turn from both ends (`'s` is a suffix; a core ends PLAIN so has none left); no URL rule
 * matches (no dot) and the only infix is each `-` (no other trigger), so the tokens are those parts unless a special
 * case spells some run of them. Pushes them and returns the chunk's end, or returns -1 having pushed nothing.
 */
export function plainChunk(text: string, a: number, cls: Uint8Array, hashes: SpecialHashes, out: OffsetBuffer): number {
  const n = text.length;
  const from = out.length;
  let i = a;
  if ((cls[text.charCodeAt(i)]! & OPEN) !== 0) out.push(a, ++i);
  if (i === n || (cls[text.charCodeAt(i)]! & PLAIN) === 0) return undo(out, from);
  const coreFrom = out.length;
  let seg = i;
  let end = i;
  // The chunk's hash up to its last PLAIN unit so far: all a plain word needs checked.
  let h = 0;
  let hRun = 0;
  for (; i < n; i++) {
    const u = text.charCodeAt(i);
    const k = cls[u]!;
    if ((k & PLAIN) !== 0) end = i + 1;
    else if ((k & INNER) === 0) {
      if (u !== 0x2d || end !== i || (cls[text.charCodeAt(i - 1)]! & ALPHA) === 0) break;
      if (i + 1 === n || (cls[text.charCodeAt(i + 1)]! & (ALPHA | PLAIN)) !== (ALPHA | PLAIN)) break;
      out.push(seg, i);
      out.push(i, i + 1);
      seg = i + 1;
    }
    hRun = (hRun * 31 + u) | 0; // hashRange, a unit at a time
    if (end === i + 1) h = hRun;
  }
  // A final `'s` is a suffix; what it leaves must end PLAIN too, and not in a second `'s` (`ab's's`: spaCy strips that too).
  const core = isApostropheS(text, end) ? end - 2 : end;
  if (core < end && (core - seg < 1 || (cls[text.charCodeAt(core - 1)]! & PLAIN) === 0)) return undo(out, from);
  if (core < end && core - seg >= 2 && isApostropheS(text, core)) return undo(out, from);
  out.push(seg, core);
  const coreTo = out.length;
  if (core < end) out.push(core, end);
  i = end;
  for (let c = 0; c < 2 && i < n && closes(text, i, cls); c++) out.push(i, ++i);
  if (i < n && cls[text.charCodeAt(i)] !== SPACE) return undo(out, from);
  const special = out.length - from === 1 ? hashes.specials.mayHave(h, end - a) : spellsSpecial(text, out, from, coreFrom, coreTo, hashes);
  return special ? undo(out, from) : i;
}

function undo(out: OffsetBuffer, from: number): number {
  out.length = from;
  return -1;
}

/**
 * Whether a special case may spell the core or a run of two tokens or more (which the affix loop or the final
 * matcher would act on), or a one-token pattern a single token (the matcher rewrites only runs that spell a pattern
 * token for token).
 */
function spellsSpecial(text: string, out: OffsetBuffer, from: number, coreFrom: number, coreTo: number, hashes: SpecialHashes): boolean {
  const { starts, ends } = out;
  for (let t = from; t < out.length; t++) {
    const a = starts[t]!;
    let h = 0;
    for (let u = t; u < out.length; u++) {
      const e = ends[u]!;
      if (e - a > hashes.longest) break;
      for (let b = starts[u]!; b < e; b++) h = (h * 31 + text.charCodeAt(b)) | 0; // hashRange, a unit at a time
      const single = u === t && !(t === coreFrom && u + 1 === coreTo);
      if ((single ? hashes.oneToken : hashes.specials).mayHave(h, e - a)) return true;
    }
  }
  return false;
}
