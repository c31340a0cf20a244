// Rejects jq programs that could reach outside their one document: other inputs, the environment, files, logs.
import { buildTree, isGroup, nextSig, prevSig, type Item } from './tree.js';
import { tokenize } from './tokenize.js';

/** A program uses a construct a recipe may not use. */
export class JqUnsafeError extends Error {
  override readonly name = 'JqUnsafeError';
}

/** Builtins (any arity) that a recipe may not call, with the reason shown to the user. */
const BANNED_CALLS: ReadonlyMap<string, string> = new Map([
  ['input', 'reads other documents of the batch'],
  ['inputs', 'reads other documents of the batch'],
  ['input_filename', 'depends on how documents are batched'],
  ['input_line_number', 'depends on how documents are batched'],
  ['env', 'exposes the environment'],
  ['halt', 'stops the jq interpreter'],
  ['halt_error', 'stops the jq interpreter'],
  ['debug', 'writes to the log'],
  ['stderr', 'writes to the log'],
  ['modulemeta', 'uses the module system'],
  ['get_search_list', 'uses the module system'],
  ['get_jq_origin', 'exposes host paths'],
  ['get_prog_origin', 'exposes host paths'],
  ['import', 'uses the module system'],
  ['include', 'uses the module system'],
]);

const BANNED_VARS: ReadonlyMap<string, string> = new Map([
  ['ENV', 'exposes the environment'],
  ['__loc__', 'exposes the program location'],
  ['__prog_args', 'exposes the program arguments'],
]);

const RESERVED_PREFIX = '__assay';

/** Throw JqUnsafeError if the program uses a banned builtin, variable or reserved name anywhere (interpolations included). */
export function checkSafety(src: string): void {
  checkSeq(buildTree(tokenize(src)), null);
}

function checkSeq(items: readonly Item[], enclosing: string | null): void {
  items.forEach((it, i) => {
    if (isGroup(it)) return checkSeq(it.items, it.open.text);
    if (it.kind === 'str') {
      for (const p of it.parts ?? []) if (p.kind === 'interp') checkSeq(buildTree(p.tokens), null);
      return;
    }
    if (it.kind === 'var') {
      const name = it.text.slice(1);
      const why = BANNED_VARS.get(name) ?? (name.startsWith(RESERVED_PREFIX) ? 'is reserved for Assay' : undefined);
      if (why !== undefined) throw new JqUnsafeError(`\`${it.text}\` is not allowed in a recipe (it ${why})`);
      return;
    }
    if (it.kind !== 'ident' && it.kind !== 'keyword') return;
    const why = BANNED_CALLS.get(it.text) ?? (it.text.startsWith(RESERVED_PREFIX) ? 'is reserved for Assay' : undefined);
    if (why !== undefined && !isObjectKey(items, i, enclosing)) {
      throw new JqUnsafeError(`\`${it.text}\` is not allowed in a recipe (it ${why})`);
    }
  });
}

/**
 * `{env: 1}` and the shorthand `{env}` (= `{env: .env}`) only name a key. Inside `{…}` entries are
 * separated by top-level commas (values are restricted to `ExpD`, which has no bare comma).
 */
function isObjectKey(items: readonly Item[], i: number, enclosing: string | null): boolean {
  if (enclosing !== '{') return false;
  const p = prevSig(items, i);
  const n = nextSig(items, i);
  const prev = p === -1 ? undefined : items[p];
  const next = n === -1 ? undefined : items[n];
  const startsEntry = prev === undefined || (prev.kind === 'op' && prev.text === ',');
  const endsKey = next === undefined || (next.kind === 'op' && (next.text === ':' || next.text === ','));
  return startsEntry && endsKey;
}
