// Recipe key completion: the mixer config's schema as a tree of keys, and which mapping a YAML cursor is typing a key in.
import { mixerConfig } from '../../../shared/recipe/schema.js';

/** A key the recipe may have at some place, with what its value is and what it does. */
export interface RecipeKey {
  key: string;
  /** `object`, `list of objects`, `list of strings`, `string`, `integer`, `number`, `boolean`, `jsonpath | jq`, … */
  type: string;
  doc: string;
}

type KeyNode = { kind: 'object'; keys: Map<string, KeyNode> } | { kind: 'array'; element: KeyNode } | { kind: 'leaf'; type: string };

/** zod v4's own description of a schema (`_zod.def`), the parts read here. */
interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  options?: Schema[];
  entries?: Record<string, string>;
  valueType?: Schema;
}
type Schema = { _zod: { def: Def } };

/** The key tree of a zod schema: wrappers (optional, default, pipe) looked through; a union is its object option if it has one. */
function treeOf(schema: Schema): KeyNode {
  const def = schema._zod.def;
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'nullable':
    case 'readonly':
    case 'catch':
      return treeOf(def.innerType as Schema);
    case 'pipe':
      return treeOf(def.in as Schema);
    case 'object':
      return { kind: 'object', keys: new Map(Object.entries(def.shape ?? {}).map(([k, v]) => [k, treeOf(v)])) };
    case 'array':
      return { kind: 'array', element: treeOf(def.element as Schema) };
    case 'union': {
      const options = (def.options ?? []).map(treeOf);
      const structured = options.find((o) => o.kind !== 'leaf');
      if (structured) return structured;
      return { kind: 'leaf', type: [...new Set(options.map((o) => (o.kind === 'leaf' ? o.type : 'value')))].join(' or ') };
    }
    case 'enum':
      return { kind: 'leaf', type: Object.values(def.entries ?? {}).join(' | ') };
    case 'record':
      return { kind: 'leaf', type: `map of ${typeName(treeOf(def.valueType as Schema))}` };
    case 'int':
      return { kind: 'leaf', type: 'integer' };
    default:
      return { kind: 'leaf', type: def.type };
  }
}

function typeName(n: KeyNode): string {
  if (n.kind === 'leaf') return n.type;
  if (n.kind === 'object') return 'object';
  return `list of ${n.element.kind === 'object' ? 'objects' : `${typeName(n.element)}s`}`;
}

export const RECIPE_TREE = treeOf(mixerConfig as unknown as Schema);

/** One line per key, by its place (`streams[].output.path`); keys without one still complete. */
export const RECIPE_KEY_DOCS: Record<string, string> = {
  streams: 'The streams to mix: each reads documents, applies its rules and writes its own output.',
  'streams[].name': 'Output shards are named `<name>-NNNN.jsonl.gz`.',
  'streams[].documents': 'Globs of documents files (`documents/**/*.jsonl.gz`).',
  'streams[].attributes': 'Attribute sets merged into each document: the folders `attributes/<set>/`.',
  'streams[].output': 'Where and how the stream writes.',
  'streams[].output.path': 'Output folder.',
  'streams[].output.max_size_in_bytes': 'Start a new shard past this many bytes (default 2 GiB).',
  'streams[].output.discard_fields': 'Top-level fields left out of written documents.',
  'streams[].output.min_text_length': 'Drop documents whose text (trimmed) is shorter than this.',
  'streams[].filter': 'Include and exclude rules.',
  'streams[].filter.include': 'Keep a document only when one of these matches.',
  'streams[].filter.exclude': 'Drop a document when any of these matches.',
  'streams[].filter.syntax': 'Rule language: `jsonpath` (default) or `jq`.',
  'streams[].span_replacement': 'Replace the text of attribute spans whose score is in range.',
  'streams[].span_replacement[].span': 'Selector of the spans (`$.attributes.<key>`).',
  'streams[].span_replacement[].min_score': 'Replace spans scoring at least this.',
  'streams[].span_replacement[].max_score': 'Replace spans scoring below this (exclusive).',
  'streams[].span_replacement[].replacement': 'Replacement text; `{}` is the original span, a leading `$` a jq selector.',
  'streams[].span_replacement[].syntax': 'Selector language: `jsonpath` (default) or `jq`.',
  'streams[].compression': 'Override the codecs inferred from file names (`input`, `output`).',
  'streams[].assay': 'Assay-only stream options (Dolma ignores them).',
  'streams[].assay.allow_missing_attributes': 'Accept a documents file without its attribute file (Dolma’s silent behaviour).',
  'streams[].assay.sample': 'Keep a deterministic fraction of the kept documents (`fraction`, per `source` or all; `seed`).',
  'streams[].assay.repeat': 'Copies written of each kept document (all, or per `source`).',
  work_dir: 'Dolma’s scratch folders (`input`, `output`).',
  processes: 'Processes mixing shards in parallel.',
  shuffle: 'Dolma’s shuffle flag (accepted; shards keep input order).',
  dryrun: 'Check the config and stop.',
  assay: 'Assay-only: the tagger preset (`tag`) and an executor (`executor`).',
  'assay.tag': 'Taggers that produce this recipe’s attributes (`assay tag -c recipe.yaml`).',
  'assay.executor': 'Run on a Slurm cluster (`kind: slurm`, partition, tasks, …).',
};

/** The keys of the mapping at `path` (segments, `[]` for a list's items); empty when the path is not a mapping. */
export function recipeKeys(path: readonly string[]): RecipeKey[] {
  let node: KeyNode = RECIPE_TREE;
  for (const seg of path) {
    if (seg === '[]' && node.kind === 'array') node = node.element;
    else if (node.kind === 'object' && node.keys.has(seg)) node = node.keys.get(seg) as KeyNode;
    else return [];
  }
  // A list's items need their `- ` first: below a list key without one, nothing is offered.
  if (node.kind !== 'object') return [];
  const at = docPath(path);
  return [...node.keys].map(([key, n]) => ({ key, type: typeName(n), doc: RECIPE_KEY_DOCS[at === '' ? key : `${at}.${key}`] ?? '' }));
}

/** `['streams', '[]', 'output']` → `streams[].output`, the form RECIPE_KEY_DOCS uses. */
export function docPath(path: readonly string[]): string {
  return path.reduce((acc, seg) => (seg === '[]' ? `${acc}[]` : acc === '' ? seg : `${acc}.${seg}`), '');
}

/** A YAML line as block structure: dash columns of list items, then the column and name of a `key:` if it has one. */
function lineShape(line: string): { dashes: number[]; col: number; key: string | null } | null {
  if (/^\s*(#.*)?$/.test(line)) return null;
  const dashes: number[] = [];
  let i = 0;
  while (i < line.length && line[i] === ' ') i++;
  while (line[i] === '-' && (line[i + 1] === ' ' || i + 1 === line.length)) {
    dashes.push(i);
    i++;
    while (line[i] === ' ') i++;
  }
  const m = /^([A-Za-z_][\w-]*|"[^"]*"|'[^']*')\s*:(\s|$)/.exec(line.slice(i));
  return { dashes, col: i, key: m ? (m[1] as string).replace(/^["']|["']$/g, '') : null };
}

/**
 * Where the cursor (0-based `line`, `column`) is typing a mapping key in block-style YAML: the path of the mapping
 * (`['streams', '[]', 'output']`), or null when it is not at a key (in a value, a flow collection, a comment).
 */
export function keyPathAt(lines: readonly string[], line: number, column: number): string[] | null {
  const before = (lines[line] ?? '').slice(0, column);
  if (!/^\s*(-\s+)*[A-Za-z_]?[\w-]*$/.test(before)) return null;
  const stack: { col: number; key: string }[] = [];
  const enter = (shape: { dashes: number[]; col: number; key: string | null }): void => {
    for (const d of shape.dashes) {
      while (stack.length > 0 && (stack.at(-1) as { col: number }).col >= d) stack.pop();
      stack.push({ col: d, key: '[]' });
    }
    while (stack.length > 0 && (stack.at(-1) as { col: number }).col >= shape.col) stack.pop();
  };
  for (let l = 0; l < line; l++) {
    const shape = lineShape(lines[l] ?? '');
    if (shape === null) continue;
    // A line that is neither a key nor a list item (a continued scalar, a flow collection's rest) changes nothing.
    if (shape.key === null && shape.dashes.length === 0) continue;
    enter(shape);
    if (shape.key !== null) stack.push({ col: shape.col, key: shape.key });
  }
  const here = lineShape(before.length > 0 ? `${before}x:` : 'x:') ?? { dashes: [], col: before.length, key: null };
  enter(here);
  return stack.map((f) => f.key);
}
