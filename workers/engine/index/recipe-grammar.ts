// Test helper: random mixer recipes drawn from a grammar over the test dataset's attributes (for preview = run).
import { parse, stringify } from 'yaml';
import type { AttributeKeyInfo } from '../../../shared/contract/workspace.js';

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const chance = (r: R, p: number): boolean => r() < p;

export interface GrammarInput {
  sets: readonly string[];
  /** Sets that lack a file for some documents file (need allow_missing_attributes or a narrower glob). */
  partialSets: readonly string[];
  catalogue: readonly AttributeKeyInfo[];
  /** Also draw assay.sample fractions and assay.repeat counts (and, in pairs, edit them). */
  sampling?: boolean;
}

/** A threshold near the key's observed values: a quantile, sometimes nudged, sometimes exactly a value. */
function threshold(r: R, k: AttributeKeyInfo | undefined): number {
  if (!k || k.quantiles.length === 0) return Math.round(r() * 100) / 100;
  const q = pick(r, k.quantiles).value;
  const v = chance(r, 0.3) ? q : q + (r() - 0.5) * (Math.abs(q) * 0.2 + 0.1);
  return Math.round(v * 1000) / 1000;
}

const OPS = ['<', '<=', '>', '>=', '==', '!='] as const;
const ordered = (r: R): string => pick(r, ['<', '<=', '>', '>=']);

function jsonpathAtom(r: R, keys: AttributeKeyInfo[]): string {
  const k = pick(r, keys);
  const K = k.key.includes('.') ? k.key.split('.')[0] as string : k.key;
  const t = threshold(r, k);
  const form = r();
  if (form < 0.35) return `@.${K} && @.${K}[0] && @.${K}[0][2] ${ordered(r)} ${t}`;
  if (form < 0.45) return `@.${K}[0][2] ${ordered(r)} ${t}`;
  if (form < 0.5) return `@.${K}[0][-1] ${pick(r, OPS)} ${t}`;
  if (form < 0.6) return `@.${K} ${pick(r, OPS)} ${t}`;
  if (form < 0.65) return `@.${K}`;
  if (form < 0.7) return `@.${K}[0]`;
  if (form < 0.75) return `@.odd__score == ${pick(r, ["'low'", '"high"', 'true', 'false', 'null', '0.5'])}`;
  if (form < 0.8) return `@.nest.a ${ordered(r)} ${Math.floor(r() * 10)}`;
  if (form < 0.85) return `$.metadata.length ${ordered(r)} ${Math.floor(r() * 5000)}`;
  if (form < 0.9) return `@.${K}[1][2] ${ordered(r)} ${t}`;
  if (form < 0.95) return `@.nest.b[0][2] > 0.5`;
  return `@.${K}[0][0] == 0`;
}

function jsonpathRule(r: R, keys: AttributeKeyInfo[]): string {
  const form = r();
  if (form < 0.55) return `$.attributes[?(${jsonpathAtom(r, keys)})]`;
  if (form < 0.62) return `$.attributes[?((${jsonpathAtom(r, keys)}) || (${jsonpathAtom(r, keys)}))]`;
  if (form < 0.67) return `$.attributes[?(!(${jsonpathAtom(r, keys)}))]`;
  if (form < 0.72) return `$.attributes[?(${jsonpathAtom(r, keys)} && ${jsonpathAtom(r, keys)})]`;
  if (form < 0.78) return `$.metadata[?(@.length ${ordered(r)} ${Math.floor(r() * 5000)})]`;
  if (form < 0.82) return `$.metadata[?(@.lang ${pick(r, ['==', '!='])} '${pick(r, ['en', 'de', 'xx'])}')]`;
  if (form < 0.84) return `$.metadata[?(@.flag == ${pick(r, ['true', 'false'])})]`;
  if (form < 0.87) return `$[?(@.source == '${pick(r, ['web', 'books', 'code'])}')]`;
  if (form < 0.89) return pick(r, ['$.id', '$.metadata.url', `$.attributes.${pick(r, keys).key.split('.')[0]}`, '$.attributes']);
  // Outside the compiled subset: evaluated exactly.
  return pick(r, [
    `$..odd__score`,
    `$.attributes.${pick(r, keys).key.split('.')[0]}[*][2]`,
    `$.attributes[?(@.odd__score in ['low', 'high'])]`,
    `$.metadata[?(@.lang ~= 'e.')]`,
    `$.attributes.${pick(r, keys).key.split('.')[0]}[?(@[2] > 0.5)]`,
    `$.attributes[?(@.${pick(r, keys).key.split('.')[0]} size 1)]`,
  ]);
}

function jqPath(k: AttributeKeyInfo): string {
  const parts = k.key.split('.');
  return `.attributes${parts.map((p) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `."${p}"`)).join('')}`;
}

function jqAtom(r: R, keys: AttributeKeyInfo[], always: AttributeKeyInfo[]): string {
  const k = pick(r, keys);
  const safe = pick(r, always.length ? always : keys);
  const t = threshold(r, k);
  const form = r();
  if (form < 0.2) return `${jqPath(safe)}[0][-1] ${ordered(r)} ${threshold(r, safe)}`;
  if (form < 0.3) return `(${jqPath(k)} | length) ${ordered(r)} ${Math.floor(r() * 4)}`;
  if (form < 0.42) return `(${jqPath(k)} | if type == "array" and length > 0 and .[0] != null and .[0][2] != null then .[0][2] ${ordered(r)} ${t} else false end)`;
  if (form < 0.5) return `${jqPath(k)}?[0]?[2]? ${ordered(r)} ${t}`;
  if (form < 0.56) return `.metadata${chance(r, 0.7) ? '?' : ''}.length? ${ordered(r)} ${Math.floor(r() * 5000)}`;
  if (form < 0.6) return `.metadata?.lang? == "${pick(r, ['en', 'de'])}"`;
  if (form < 0.64) return `.source ${pick(r, ['==', '!='])} "${pick(r, ['web', 'books'])}"`;
  if (form < 0.7) return `(.text | length) ${ordered(r)} ${Math.floor(r() * 400)}`;
  if (form < 0.75) return `${jqPath(safe)}[0][-1] * 2 + 1 ${ordered(r)} ${t}`;
  if (form < 0.8) return `.attributes.odd__score? ${pick(r, ['==', '!=', '<', '>'])} ${pick(r, ['"mid"', '0.5', 'null', 'true'])}`;
  if (form < 0.85) return `${jqPath(k)}[0][-1] ${ordered(r)} ${t}`;
  if (form < 0.9) return `(${jqPath(k)} | not)`;
  // Outside the compiled subset.
  return pick(r, [`any(${jqPath(k)}[]?; .[2] > ${t})`, `(.attributes | has("${k.key.split('.')[0]}"))`, `((${jqPath(k)} // []) | length) > 0`, `[${jqPath(safe)}[]?[2]] | add > ${t}`]);
}

function jqRule(r: R, keys: AttributeKeyInfo[], always: AttributeKeyInfo[]): string {
  const form = r();
  if (form < 0.7) return jqAtom(r, keys, always);
  if (form < 0.8) return `(${jqAtom(r, keys, always)}) and (${jqAtom(r, keys, always)})`;
  if (form < 0.9) return `(${jqAtom(r, keys, always)}) or (${jqAtom(r, keys, always)})`;
  return `(${jqAtom(r, keys, always)}) | not`;
}

function spanReplacement(r: R, syntax: 'jsonpath' | 'jq', spanKeys: AttributeKeyInfo[]): Record<string, unknown> {
  const k = pick(r, spanKeys);
  const span = syntax === 'jsonpath' ? `$.attributes.${k.key}` : chance(r, 0.5) ? jqPath(k) : `${jqPath(k)}?`;
  const out: Record<string, unknown> = { span, replacement: pick(r, ['', ' |||X||| ', '[{}]', '<{}|{}>']) };
  if (syntax === 'jq') out.syntax = 'jq';
  // Scores the taggers write (1, and the hand-made 0.2 / 0.7 / 0.9) make the bounds' strictness matter.
  const lo = chance(r, 0.7) ? pick(r, [0, 0.2, 0.5, 0.7, 1, Math.round(r() * 60) / 100]) : undefined;
  const hi = lo === undefined || chance(r, 0.3) ? pick(r, [0.7, 0.9, 1, 1.5, Math.round((0.5 + r()) * 100) / 100]) : undefined;
  if (lo !== undefined) out.min_score = lo;
  if (hi !== undefined) out.max_score = hi;
  return out;
}

export interface GeneratedRecipe {
  text: string;
  output: string[];
}

/** One random recipe; `n` names its output folder(s). */
export function randomRecipe(r: R, n: number, g: GrammarInput): GeneratedRecipe {
  const keys = g.catalogue.filter((k) => k.docs > 0);
  const spanKeys = keys.filter((k) => k.kind === 'spans' || /EMAIL|PHONE|IP_ADDRESS|lines_with/.test(k.key));
  // Irregular span lists make the mixer fail; keep them in a few recipes.
  if (chance(r, 0.15)) spanKeys.push(...keys.filter((k) => k.key === 'odd__spans' || k.key === 'nest.b'));
  const always = keys.filter((k) => /gopher__gopher_v1__(word_count|character_count)|misc__(char_length_v1|random_number_v1)/.test(k.key));
  const two = chance(r, 0.2);
  const globs: string[][] = two ? [['documents/*.gz'], ['documents/b/**/*.jsonl', 'documents/*.zst']] : [pick(r, [['documents/**/*'], ['documents/**/*.jsonl*'], ['documents/*.gz', 'documents/b/*']])];
  const output: string[] = [];
  const streams = globs.map((documents, s) => {
    const syntax = chance(r, 0.3) ? 'jq' : 'jsonpath';
    // jq fails on a missing key (strict indexing), so jq streams mostly merge the sets its rules read.
    const attributes = g.sets.filter((s) => chance(r, syntax === 'jq' && /gopher|misc/.test(s) ? 0.9 : 0.6));
    if (chance(r, 0.3)) attributes.reverse();
    const include = Array.from({ length: chance(r, 0.3) ? 1 + Math.floor(r() * 2) : 0 }, () => (syntax === 'jq' ? jqRule(r, keys, always) : jsonpathRule(r, keys)));
    const exclude = Array.from({ length: Math.floor(r() * 6) }, () => (syntax === 'jq' ? jqRule(r, keys, always) : jsonpathRule(r, keys)));
    const path = `out/r${n}-${s}`;
    output.push(path);
    const stream: Record<string, unknown> = { name: `s${s}`, documents, attributes, output: { path, max_size_in_bytes: 1_000_000 } };
    if (include.length + exclude.length > 0) stream.filter = { ...(include.length ? { include } : {}), ...(exclude.length ? { exclude } : {}), syntax };
    const reps = Array.from({ length: Math.floor(r() * 3) }, () => spanReplacement(r, chance(r, 0.7) ? 'jsonpath' : 'jq', spanKeys));
    if (reps.length > 0 || stream.filter === undefined) stream.span_replacement = reps.length ? reps : [spanReplacement(r, 'jsonpath', spanKeys)];
    if (chance(r, 0.5)) (stream.output as Record<string, unknown>).min_text_length = pick(r, [1, 5, 20, 60, 150, 400]);
    if (chance(r, 0.15)) (stream.output as Record<string, unknown>).discard_fields = ['metadata'];
    const assay: Record<string, unknown> = {};
    if (attributes.some((a) => g.partialSets.includes(a))) assay.allow_missing_attributes = true;
    // assay.sample / assay.repeat (issue 14), drawn last so recipes without them stay as they were.
    if (g.sampling && chance(r, 0.35)) assay.sample = { fraction: pick(r, [0.3, 0.75, { web: 0.5 }, { books: 0.2, code: 0.9, '': 0.6 }]), seed: Math.floor(r() * 100) };
    if (g.sampling && chance(r, 0.2)) assay.repeat = pick(r, [2, { web: 3 }, { '': 2, books: 2 }]);
    if (Object.keys(assay).length > 0) stream.assay = assay;
    return stream;
  });
  return { text: stringify({ streams, processes: 1 }), output };
}

/**
 * A recipe and an edited version of it, as a user tunes one: thresholds nudged, an exclude removed, moved or
 * added, min_text_length changed — or, now and then, an unrelated recipe with the same stream names.
 */
export function recipePair(r: R, n: number, g: GrammarInput): { old: GeneratedRecipe; new: GeneratedRecipe } {
  const old = randomRecipe(r, n, g);
  if (chance(r, 0.15)) return { old, new: randomRecipe(r, n, g) };
  const cfg = parse(old.text) as { streams: Record<string, unknown>[] };
  const keys = g.catalogue.filter((k) => k.docs > 0);
  const nudge = (expr: string): string =>
    expr.replace(/([<>]=?|==|!=)\s*(-?\d+(?:\.\d+)?)/g, (m, op: string, num: string) => (chance(r, 0.5) ? `${op} ${Math.round((Number(num) * (0.5 + r()) + (r() - 0.5) * 0.2) * 1000) / 1000}` : m));
  for (const stream of cfg.streams) {
    const filter = stream.filter as { exclude?: string[]; include?: string[]; syntax?: string } | undefined;
    if (filter?.exclude) {
      filter.exclude = filter.exclude.map((e) => (chance(r, 0.6) ? nudge(e) : e));
      if (filter.exclude.length > 1 && chance(r, 0.3)) filter.exclude.splice(Math.floor(r() * filter.exclude.length), 1);
      if (filter.exclude.length > 1 && chance(r, 0.3)) filter.exclude.reverse();
      if (chance(r, 0.3) && filter.syntax !== 'jq') filter.exclude.push(jsonpathRule(r, keys));
    }
    if (filter?.include) filter.include = filter.include.map((e) => (chance(r, 0.5) ? nudge(e) : e));
    const assay = stream.assay as { sample?: { fraction: unknown; seed: number } } | undefined;
    if (g.sampling && assay?.sample && chance(r, 0.4)) assay.sample.fraction = pick(r, [0.1, 0.5, 0.9, { code: 0.4 }]);
    if (g.sampling && assay?.sample && chance(r, 0.15)) assay.sample.seed++;
    const output = stream.output as Record<string, unknown>;
    if (chance(r, 0.3)) {
      if (output.min_text_length === undefined) output.min_text_length = pick(r, [5, 60, 400]);
      else delete output.min_text_length;
    }
  }
  return { old, new: { text: stringify(cfg), output: old.output } };
}
