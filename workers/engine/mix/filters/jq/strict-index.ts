// Source rewrite giving stock jq the strict indexing of jaq 1.2: `null | .a` is an error unless written `.a?`.
//
// Dolma evaluates filters with jaq 1.2, where indexing `null` (`.a`, `."a"`, `.[k]`, `.[i:j]`) fails,
// and upstream asserts that `.attributes.b.b != null` on a document without `attributes.b` fails the
// run (spec §3.4, fixture M7). jq returns null instead. We rewrite every index step that is not
// followed by `?` so that its *base* goes through a guard first:
//
//   B.k   →  __assay_ix(B; "\"k\"").k        .a.b  →  __assay_ix(__assay_ix(.; "\"a\"").a; "\"b\"").b
//
// The guard is `f | if type == "null" then error(...) else . end`, so the rewritten chain is still a
// valid path expression (`path(...)`, `|=`, `del(...)`); the step itself stays jq's own syntax, so an
// index expression `B[e]` still evaluates `e` against the chain's input, as jq defines it. `?` steps
// and the iterator `.[]` are left alone (jq already errors on `null | .[]`).
//
// A `?` guards only its own step, in jq 1.7 (opcode INDEX_OPT) as in jaq: `null | .a.b?` still fails
// on `.a`, since the guard of `.a` sits in the base of the `.b?` step.
//
// Known differences from jaq 1.2, kept deliberately:
// * Only index *syntax* is strict; builtins such as `getpath(["a","b"])` keep jq's null behaviour.
// * Updates through a missing intermediate key (`{} | .a.b = 1`) now fail instead of creating `.a`.
import { buildTree, isEmptyBrackets, isGroup, isTrivia, nextSig, sourceOf, type Item } from './tree.js';
import { tokenize, type StrPart, type Token } from './tokenize.js';

/** Name of the guard; identifiers starting with `__assay` are reserved (see safety.ts). */
export const GUARD = '__assay_ix';

/** The definition the rewritten program relies on; prepend it (it is a jq `def`, so `def …; program`). */
export const STRICT_PRELUDE = `def ${GUARD}(f; $k): f | if type == "null" then error("cannot index null with \\($k)") else . end;`;

const MAX_LABEL = 60;

/** Rewrite a jq program so that indexing null raises an error (see the module comment). */
export function rewriteStrictIndexing(src: string): string {
  return rewriteSeq(buildTree(tokenize(src)));
}

/** A jq string literal holding `label`; JSON escapes are a subset of jq's and never form `\(`. */
function labelLiteral(label: string): string {
  const short = label.length > MAX_LABEL ? label.slice(0, MAX_LABEL) + '…' : label;
  return JSON.stringify(short);
}

function renderString(t: Token): string {
  const parts = t.parts ?? [];
  return '"' + parts.map(renderPart).join('') + '"';
}

function renderPart(p: StrPart): string {
  return p.kind === 'literal' ? p.text : '\\(' + rewriteSeq(buildTree(p.tokens)) + ')';
}

function render(item: Item): string {
  if (isGroup(item)) return item.open.text + rewriteSeq(item.items) + item.close.text;
  return item.kind === 'str' ? renderString(item) : item.text;
}

/** What the key of an index step looks like in an error message. */
function stepLabel(target: Item): string {
  if (isGroup(target)) return target.items.map(sourceOf).join('').trim();
  if (target.kind === 'field') return JSON.stringify(target.text.slice(1));
  return target.text;
}

/**
 * Rewrite one bracket level. A postfix chain is a primary term followed by steps; `termStart` is the
 * item where the current chain began (valid while `inTerm`), and wrapping a base means prefixing
 * `out[termStart]` and suffixing the last significant item before the step.
 */
function rewriteSeq(items: readonly Item[]): string {
  const out = items.map((it) => (isTrivia(it) ? sourceOf(it) : ''));
  let inTerm = false;
  let termStart = -1;
  let lastSig = -1;

  const step = (from: number, to: number, target: Item): void => {
    const after = nextSig(items, to);
    const lax = after !== -1 && items[after]!.kind === 'question';
    const strict = !lax && !isEmptyBrackets(target);
    for (let k = from; k <= to; k++) if (!isTrivia(items[k])) out[k] = render(items[k]!);
    if (strict) {
      const label = labelLiteral(stepLabel(target));
      if (inTerm) {
        out[termStart] = `${GUARD}(` + out[termStart];
        out[lastSig] += `; ${label})`;
      } else out[from] = `${GUARD}(.; ${label})` + out[from];
    }
    if (!inTerm) termStart = from;
    inTerm = true;
    lastSig = to;
  };

  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (isTrivia(it)) continue;
    if (it.kind === 'field') {
      step(i, i, it);
      continue;
    }
    if (it.kind === 'dot') {
      const j = nextSig(items, i);
      const target = j === -1 ? undefined : items[j];
      if (target !== undefined && (target.kind === 'str' || (isGroup(target) && target.open.text === '['))) {
        step(i, j, target);
        i = j;
        continue;
      }
    }
    if (isGroup(it) && it.open.text === '[' && inTerm) {
      step(i, i, it);
      continue;
    }
    out[i] = render(it);
    const prev = lastSig === -1 ? undefined : items[lastSig];
    if (isGroup(it)) {
      // `f(args)` continues the term that `f` started; any other group starts a new primary.
      const isCall = it.open.text === '(' && inTerm && prev?.kind === 'ident' && termStart === lastSig;
      if (!isCall) termStart = i;
      inTerm = true;
    } else if (it.kind === 'str' && inTerm && prev?.kind === 'format') {
      // `@base64 "…\(.x)"` is one term; keep its start.
    } else if (['str', 'num', 'var', 'rec', 'format', 'ident', 'dot'].includes(it.kind)) {
      termStart = i;
      inTerm = true;
    } else if (it.kind !== 'question') inTerm = false; // operators and keywords (a key like `{if: 1}` is followed by `:`)
    lastSig = i;
  }
  return out.join('');
}
