// Span replacement and min_text_length over a stream, through the mixer's own applyReplacements.
import { computedReplacement, selectedSpans, trimmedUtf8Length } from '../../mix/fate.js';
import type { Json } from '../../mix/filters/types.js';
import { applyReplacements, codePointLength } from '../../mix/spans.js';
import type { EvalContext } from '../recipe/context.js';
import type { Materializer } from '../recipe/materialize.js';
import { planJqValue } from '../recipe/plan-jq.js';
import { planJsonPathValue } from '../recipe/plan-jsonpath.js';
import type { Replacer } from '../recipe/recipe.js';
import type { StreamScope } from '../recipe/streams.js';
import type { IndexData } from '../store/data.js';
import { checkInterrupt } from '../interrupt.js';
import { T } from '../store/tags.js';
import { Bitset } from './bitset.js';
import { RepStore, type Rep } from './reps.js';


/** Why the mixer would fail on a document: its error code and message (without file and line). */
export interface DocFailure {
  code: 'FILTER' | 'PARSE';
  message: string;
}

export interface SpanOutcome {
  /** Documents with at least one span to replace. */
  touched: Bitset;
  /** Per replacer: code points it replaced, per touched document (an empty array for a replacer that replaces nothing: read `?? 0`). */
  chars: Map<number, Uint32Array>;
  /** Documents on which replacement fails (the mixer stops there if the document is kept). */
  errors: Bitset;
  messages: Map<number, DocFailure>;
  /** UTF-8 bytes of the trimmed output text (what min_text_length compares); read from the text on first use. */
  trimmed(): Uint32Array;
  /** Replacements of one document, in the mixer's order (for explanations). */
  reps: RepStore;
  compiled: boolean[];
  /** Whether the output text of a document differs from its text (false for untouched documents). */
  differs(g: number): boolean;
  /** The documents of `among` whose output text differs from their text (only those are settled). */
  changed(among: Bitset): Bitset;
}

const SPACES = ' '.repeat(1 << 16);

/**
 * Collects every document's replacements (compiled selectors read span columns; others run the
 * mixer's selector on the merged document) and measures what they replace. Needs the text only
 * for the trimmed length, and only for touched documents.
 */
export function spanOutcome(replacers: readonly Replacer[], scope: StreamScope, ctx: EvalContext, mat: Materializer, data: IndexData): SpanOutcome {
  const n = ctx.n;
  const reps = new RepStore();
  const errors = new Bitset(n);
  const messages = new Map<number, DocFailure>();
  const fail = (g: number, message: string, code: DocFailure['code'] = 'FILTER'): void => {
    errors.set(g);
    if (!messages.has(g)) messages.set(g, { code, message });
  };
  const compiled: boolean[] = [];
  replacers.forEach((r, k) => {
    const add = (g: number, start: number, end: number, score: number, replacement: string): void => {
      if (score >= r.min && score < r.max) reps.add(g, start, end, replacement, k);
    };
    const plan = r.dynamic === null ? (r.selector.syntax === 'jq' ? planJqValue(r.selector.expr, data.interner) : planJsonPathValue(r.selector.expr)) : null;
    compiled.push(plan !== null);
    const exact: number[] = [];
    if (plan !== null) {
      const v = plan(ctx);
      for (const [from, to] of scope.ranges) {
        for (let g = from; g < to; g++) {
          const t = v.tag[g] as number;
          if (t === T.ABSENT || t === T.NULL || t === T.NOOUT || t === T.EMPTY) continue;
          if (t === T.SPANS) {
            const s = v.spans?.(g);
            if (!s) {
              exact.push(g);
              continue;
            }
            for (let i = s.from; i < s.to; i++) add(g, s.spans.starts[i] as number, s.spans.ends[i] as number, s.spans.scores[i] as number, r.replacement);
          } else if (t === T.ERROR) exact.push(g);
          else if (t === T.NUM || t === T.STR || t === T.TRUE || t === T.FALSE) {
            fail(g, `${r.field}.span \`${r.selector.expr}\` selected a ${t === T.NUM ? 'number' : t === T.STR ? 'string' : 'boolean'}, not a list of spans`);
          } else exact.push(g);
        }
      }
    } else for (const [from, to] of scope.ranges) for (let g = from; g < to; g++) exact.push(g);
    for (let i = 0; i < exact.length; i++) {
      if ((i & 255) === 0) checkInterrupt();
      const g = exact[i] as number;
      const doc = mat.merged(g, scope.merge.sets);
      const got = exactSpans(r, doc);
      if (typeof got === 'string') fail(g, got);
      else for (const s of got) add(g, s.start, s.end, s.score, s.replacement);
    }
  });
  reps.seal();
  const touched = new Bitset(n);
  // The stand-in text has the document's code points, so the output's length in code points is the
  // real one: a different length proves the text changed without reading it.
  const lengthChanged = new Bitset(n);
  // Code points replaced in one document (a document's length in code points is a u32 in the index); a
  // replacer that selects nothing gets an empty array (every document reads as undefined: none replaced).
  const used = reps.usedRules();
  const chars = new Map<number, Uint32Array>(replacers.map((_, k) => [k, new Uint32Array(used.has(k) ? n : 0)]));
  for (const [g, list] of reps) {
    if (data.textTag[g] !== T.STR) {
      fail(g, "span replacement needs a string 'text' field", 'PARSE');
      continue;
    }
    touched.set(g);
    const len = data.chars[g] as number;
    const fake = len <= SPACES.length ? SPACES.slice(0, len) : ' '.repeat(len);
    const out = applyReplacements(fake, list, (from, to, rep) => {
      const c = chars.get((rep as Rep).rule) as Uint32Array;
      c[g] = (c[g] as number) + (to - from);
    });
    if (codePointLength(out) !== len) lengthChanged.set(g);
  }
  let trimmed: Uint32Array | null = null;
  // Same-length outputs (a span replaced by as many characters, or by itself through `{}`) are
  // compared on the text, read once per document and only when asked.
  const decided = lengthChanged.clone();
  const changed = lengthChanged.clone();
  const decide = (g: number): void => {
    if (decided.has(g) || !touched.has(g)) return;
    decided.set(g);
    const text = mat.raw(g).text as string;
    if (applyReplacements(text, reps.get(g) ?? []) !== text) changed.set(g);
  };
  return {
    touched,
    chars,
    errors,
    messages,
    reps,
    compiled,
    differs: (g) => {
      decide(g);
      return changed.has(g);
    },
    changed: (among) => {
      touched.and(among).andNot(decided).forEach(decide);
      return changed.and(among);
    },
    trimmed: () => {
      if (trimmed !== null) return trimmed;
      const out = Uint32Array.from(data.trimmed);
      let done = 0;
      touched.forEach((g) => {
        // Safe to stop here: documents done so far are settled, and nothing is kept until the loop ends.
        if ((done++ & 255) === 0) checkInterrupt();
        const text = mat.raw(g).text as string;
        const replaced = applyReplacements(text, reps.get(g) ?? []);
        out[g] = trimmedUtf8Length(replaced);
        // The output is at hand: settle `changed` for free.
        if (!decided.has(g)) {
          decided.set(g);
          if (replaced !== text) changed.set(g);
        }
      });
      return (trimmed = out);
    },
  };
}

/** The mixer's replacer on one merged document (mix/compile.ts compileReplacer), as spans or an error message. */
function exactSpans(r: Replacer, doc: Json): { start: number; end: number; score: number; replacement: string }[] | string {
  let value: Json;
  let text: Json | undefined;
  try {
    value = r.selector.select([doc])[0] as Json;
  } catch (e) {
    return `${r.field}.span \`${r.selector.expr}\` failed: ${(e as Error).message}`;
  }
  // The mixer evaluates a computed replacement for every document, so its failures count even without spans.
  if (r.dynamic !== null) {
    try {
      text = r.dynamic.select([doc])[0] as Json;
    } catch (e) {
      return `${r.field}.replacement \`${r.replacement}\` failed: ${(e as Error).message}`;
    }
  }
  const spans = selectedSpans(value, r.field, r.selector.expr);
  if (spans === null) return [];
  if (typeof spans === 'string') return spans;
  let replacement = r.replacement;
  if (r.dynamic !== null) {
    const t = computedReplacement(text, r.field, r.replacement);
    if (typeof t !== 'string') return t.error;
    replacement = t;
  }
  return spans.map((s) => ({ ...s, replacement }));
}
