// Which members of a document's merged `attributes` a stream's JSONPath rules and span selectors can read, found from their syntax trees.
import { parseJsonPath, type FilterExpr, type PathExpr, type Segment } from './filters/jsonpath/index.js';

/**
 * Where a path step may stand: the document itself, its `attributes` object, or anywhere else (inside an
 * attribute's value, or in another field of the document: nothing there leads back to `attributes` by going down).
 */
const DOC = 1;
const ATTRS = 2;
const OTHER = 4;

/** A read this analysis cannot bound to named members (a wildcard over `attributes`, `..`, its value compared). */
class Unbounded extends Error {}

/**
 * The attribute keys `rules` and `selectors` (JSONPath, Dolma's jsonpath-rust semantics) can read, or null when some
 * path may read any member: a wildcard or `..` over the document or `attributes`, or `attributes` (or the document)
 * taken as a value — compared, or selected as spans. A rule only asks whether its path finds a node, so a rule's
 * path may end at `attributes` itself.
 */
export function attributeKeysRead(rules: readonly string[], selectors: readonly string[]): Set<string> | null {
  const keys = new Set<string>();
  try {
    for (const r of rules) walk(parseJsonPath(r), DOC, keys);
    for (const s of selectors) if (walk(parseJsonPath(s), DOC, keys) & (DOC | ATTRS)) throw new Unbounded();
  } catch (e) {
    if (e instanceof Unbounded) return null;
    throw e;
  }
  return keys;
}

/** Where `path` may end, recording the attribute names it reads; `here` is where `@` stands. */
function walk(path: PathExpr, here: number, keys: Set<string>): number {
  let at = path.start === 'root' ? DOC : here;
  for (const seg of path.segments) at = step(seg, at, keys);
  return at;
}

function step(seg: Segment, at: number, keys: Set<string>): number {
  if (seg.kind === 'descendant' && at & (DOC | ATTRS)) throw new Unbounded();
  let next = 0;
  for (const sel of seg.selectors) {
    switch (sel.kind) {
      case 'name':
        if (at & DOC) next |= sel.name === 'attributes' ? ATTRS : OTHER;
        if (at & ATTRS) {
          keys.add(sel.name);
          next |= OTHER;
        }
        if (at & OTHER) next |= OTHER;
        break;
      case 'wildcard':
        if (at & ATTRS) throw new Unbounded();
        if (at & DOC) next |= ATTRS | OTHER;
        if (at & OTHER) next |= OTHER;
        break;
      case 'index':
      case 'slice':
        // The document and `attributes` are objects here: only an array element can be selected, and that is OTHER.
        if (at & OTHER) next |= OTHER;
        break;
      case 'filter':
        // jsonpath-rust: a filter on an object tests the object itself and yields it; on an array, its elements.
        test(sel.test, at, keys);
        next |= at;
        break;
    }
  }
  return next;
}

function test(f: FilterExpr, at: number, keys: Set<string>): void {
  switch (f.kind) {
    case 'or':
    case 'and':
      for (const x of f.operands) test(x, at, keys);
      return;
    case 'not':
      return test(f.operand, at, keys);
    case 'exists':
      walk(f.path, at, keys);
      return;
    case 'compare':
      // An operand's value is read whole: `attributes` (or the document) compared means every member counts.
      for (const o of [f.left, f.right]) if (o.kind === 'path' && walk(o, at, keys) & (DOC | ATTRS)) throw new Unbounded();
  }
}
