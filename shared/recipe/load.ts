// Parse a recipe (YAML or JSON text) into a validated MixerConfig, with errors located by line.
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { checkAliases, checkConfigText } from './bounds.js';
import { interpolateTree, type InterpolationContext } from './interpolate.js';
import type { z } from 'zod';
import { mixerConfig, type MixerConfig } from './schema.js';

export interface RecipeIssue {
  message: string;
  /** Dotted config path, e.g. `streams[0].output.path`. */
  field: string;
  /** 1-based line and column in the recipe text, when known. */
  line?: number;
  column?: number;
}

export type ConfigParseResult<T> = { ok: true; config: T; raw: unknown } | { ok: false; issues: RecipeIssue[] };
export type RecipeParseResult = ConfigParseResult<MixerConfig>;

export function formatField(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out === '' ? '(root)' : out;
}

/** A mixer recipe. */
export function parseRecipe(text: string, ctx: InterpolationContext): RecipeParseResult {
  return parseConfigText(text, mixerConfig, ctx, 'a recipe must be a mapping with a `streams` list');
}

/** Any Dolma-style config: YAML is a superset of JSON, so one parser serves both and keeps node positions. */
export function parseConfigText<S extends z.ZodType>(
  text: string,
  schema: S,
  ctx: InterpolationContext,
  notAMapping = 'a config must be a mapping',
): ConfigParseResult<z.output<S>> {
  // Size and nesting are bounded before the parser sees the text (see bounds.ts).
  const bounded = checkConfigText(text);
  if (bounded !== null) return { ok: false, issues: [{ message: bounded.message, field: '(syntax)', line: bounded.line }] };
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined): { line?: number; column?: number } => {
    if (offset === undefined) return {};
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    return {
      ok: false,
      issues: collapseRepeats(doc.errors.map((e) => ({ message: e.message.split('\n')[0] ?? e.message, field: '(syntax)', ...at(e.pos[0]) }))),
    };
  }
  const locate = (path: readonly PropertyKey[]): { line?: number; column?: number } => {
    // Walk down as far as the path exists: an unknown or missing key points at its parent.
    let node: unknown = doc.contents;
    let best: number | undefined = (doc.contents as Node | null)?.range?.[0];
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((it) => String((it.key as { value?: unknown } | null)?.value ?? it.key) === String(key));
        if (!pair) break;
        best = (pair.key as Node | null)?.range?.[0] ?? best;
        node = pair.value;
      } else if (isSeq(node) && typeof key === 'number') {
        node = node.items[key];
        best = (node as Node | undefined)?.range?.[0] ?? best;
      } else break;
    }
    return at(best);
  };
  const aliases = checkAliases(doc, (offset) => lineCounter.linePos(offset).line);
  if (aliases !== null) return { ok: false, issues: [{ message: aliases.message, field: '(syntax)', line: aliases.line }] };
  let raw: unknown;
  try {
    // checkAliases bounds what aliases expand to; yaml's own alias count stays on as a second guard.
    raw = doc.toJS({ maxAliasCount: 10_000 });
  } catch (e) {
    return { ok: false, issues: [{ message: e instanceof Error ? e.message : String(e), field: '(syntax)', line: 1 }] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, issues: [{ message: notAMapping, field: '(root)', line: 1 }] };
  }
  const issues: RecipeIssue[] = [];
  const resolved = interpolateTree(raw, ctx, (path, message) => issues.push({ message, field: formatField(path), ...locate(path) }));
  if (issues.length > 0) return { ok: false, issues };
  const parsed = schema.safeParse(resolved);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = [...issue.path];
      let message = issue.message;
      if (issue.code === 'unrecognized_keys') {
        message = `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
        const withKey = [...path, issue.keys[0] ?? ''];
        issues.push({ message, field: formatField(path), ...locate(withKey) });
        continue;
      }
      issues.push({ message, field: formatField(path), ...locate(path) });
    }
    return { ok: false, issues };
  }
  return { ok: true, config: parsed.data, raw: resolved };
}

/**
 * One misplaced line makes the YAML parser report the same complaint for every sibling after it (56 markers for
 * one slip in a long recipe): the first of each message stays, naming the other lines, and at most 5 remain.
 */
export function collapseRepeats<T extends { message: string; line?: number }>(issues: readonly T[], max = 5): T[] {
  const byMessage = new Map<string, { first: T; lines: number[] }>();
  for (const i of issues) {
    const g = byMessage.get(i.message);
    if (g === undefined) byMessage.set(i.message, { first: i, lines: [] });
    else if (i.line !== undefined) g.lines.push(i.line);
  }
  const out = [...byMessage.values()].map(({ first, lines }) => {
    if (lines.length === 0) return first;
    const shown = lines.slice(0, 4).join(', ');
    return { ...first, message: `${first.message} (also on line${lines.length > 1 ? 's' : ''} ${shown}${lines.length > 4 ? ` and ${lines.length - 4} more` : ''})` };
  });
  return out.slice(0, max);
}
