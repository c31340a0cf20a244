// Parses a recipe as `assay mix` does, compiles every rule (both for columns and for the mixer's evaluator), with caches.
import { samplingLabel, samplingOf } from '../../mix/sample.js';
import { cpus } from 'node:os';
import { parseRecipe } from '../../../../shared/recipe/load.js';
import type { MixerConfig } from '../../../../shared/recipe/schema.js';
import type { RuleKind } from '../../../../shared/contract/preview.js';
import { AssayError } from '../../errors.js';
import { RecipeError } from '../../mix/config.js';
import { compileJqRule, compileJqSelector } from '../../mix/filters/jq/index.js';
import { compileJsonPathRule, compileJsonPathSelector } from '../../mix/filters/jsonpath/index.js';
import { FilterCompileError, type CompiledRule, type CompiledSelector, type FilterSyntax } from '../../mix/filters/types.js';
import { codecsOf } from '../../mix/plan.js';
import type { Interner } from '../store/interner.js';
import { RecipeLocator } from './locate.js';
import type { RulePlan } from './plan.js';
import { planJq } from './plan-jq.js';
import { planJsonPath } from './plan-jsonpath.js';

export interface FilterRule {
  kind: 'include' | 'exclude';
  /** Position among the stream's rules of this kind. */
  position: number;
  rule: CompiledRule;
  plan: RulePlan;
}

export interface Replacer {
  position: number;
  selector: CompiledSelector;
  /** Set when the replacement is `$<jq>` (computed per document). */
  dynamic: CompiledSelector | null;
  min: number;
  max: number;
  replacement: string;
  field: string;
}

export interface RuleSpec {
  /** Position among all rules of the recipe, in recipe order. */
  index: number;
  stream: number;
  kind: RuleKind;
  expression: string;
  syntax: 'jsonpath' | 'jq' | 'none';
  field: string;
  /** Config path, for locating it in the text. */
  path: (string | number)[];
  line?: number;
  filter?: FilterRule;
  replacer?: Replacer;
}

export interface ParsedRecipe {
  text: string;
  name: string;
  config: MixerConfig;
  rules: RuleSpec[];
  locator: RecipeLocator;
}

export interface RecipeCaches {
  rules: Map<string, CompiledRule>;
  selectors: Map<string, CompiledSelector>;
  plans: Map<string, RulePlan>;
  interner: Interner;
}

export function newCaches(interner: Interner): RecipeCaches {
  return { rules: new Map(), selectors: new Map(), plans: new Map(), interner };
}

/** `${d.processes:n}` needs the CPU count; os.cpus() reads /proc each call, and recipes are parsed on every keystroke. */
const CPU_COUNT = cpus().length;

/** Parse and compile; errors are RecipeErrors naming the field, line and column (like `assay mix -c`). */
export function parseAndCompile(text: string, name: string, caches: RecipeCaches, env: NodeJS.ProcessEnv = process.env): ParsedRecipe {
  const parsed = parseRecipe(text, { env, cpuCount: CPU_COUNT });
  if (!parsed.ok) throw new RecipeError(name, parsed.issues);
  const config = parsed.config;
  const locator = new RecipeLocator(text);
  const fail = (path: (string | number)[], field: string, e: unknown, expr: string): never => {
    const msg = e instanceof Error ? e.message : String(e);
    const at = locator.at(path);
    throw new RecipeError(name, [{ field, message: `cannot compile \`${expr}\`: ${msg}`, ...(at ?? {}) }]);
  };
  const rules: RuleSpec[] = [];
  config.streams.forEach((stream, s) => {
    const syntax = stream.filter?.syntax ?? 'jsonpath';
    for (const kind of ['include', 'exclude'] as const) {
      (stream.filter?.[kind] ?? []).forEach((expr, position) => {
        const path = ['streams', s, 'filter', kind, position];
        const field = `streams[${s}].filter.${kind}[${position}]`;
        let rule: CompiledRule;
        try {
          rule = compiledRule(expr, syntax, kind, caches);
        } catch (e) {
          return fail(path, field, e, expr);
        }
        const plan = planOf(expr, syntax, caches);
        rules.push({ index: rules.length, stream: s, kind, expression: expr, syntax, field, path, line: locator.at(path)?.line, filter: { kind, position, rule, plan } });
      });
    }
    (stream.span_replacement ?? []).forEach((cfg, position) => {
      const path = ['streams', s, 'span_replacement', position];
      const field = `streams[${s}].span_replacement[${position}]`;
      let selector: CompiledSelector;
      let dynamic: CompiledSelector | null = null;
      try {
        selector = compiledSelector(cfg.span, cfg.syntax, caches);
      } catch (e) {
        return fail([...path, 'span'], `${field}.span`, e, cfg.span);
      }
      if (cfg.replacement.startsWith('$')) {
        try {
          dynamic = compiledSelector(cfg.replacement.slice(1), 'jq', caches);
        } catch (e) {
          return fail([...path, 'replacement'], `${field}.replacement`, e, cfg.replacement.slice(1));
        }
      }
      const replacer: Replacer = { position, selector, dynamic, min: cfg.min_score ?? -Infinity, max: cfg.max_score ?? Infinity, replacement: cfg.replacement, field };
      rules.push({ index: rules.length, stream: s, kind: 'span_replacement', expression: cfg.span, syntax: cfg.syntax, field, path, line: locator.at(path)?.line, replacer });
    });
    if (stream.output.min_text_length > 0) {
      const path = ['streams', s, 'output', 'min_text_length'];
      rules.push({ index: rules.length, stream: s, kind: 'min_text_length', expression: String(stream.output.min_text_length), syntax: 'none', field: `streams[${s}].output.min_text_length`, path, line: locator.at(path)?.line });
    }
    // assay.sample: after every other rule, as the mixer draws only among the documents it would write.
    if (samplingOf(stream).samples) {
      const path = ['streams', s, 'assay', 'sample'];
      const expression = samplingLabel(stream).replace(/^not sampled \(assay\.sample (.*)\)$/, '$1');
      rules.push({ index: rules.length, stream: s, kind: 'sample', expression, syntax: 'none', field: `streams[${s}].assay.sample`, path, line: locator.at(path)?.line });
    }
    try {
      codecsOf(stream, `streams[${s}]`);
    } catch (e) {
      if (e instanceof AssayError && e.field !== undefined) {
        const parts = e.field.split('.');
        const at = locator.at(['streams', s, ...parts.slice(1)]);
        throw new RecipeError(name, [{ field: e.field, message: e.message.replace(`${e.field}: `, ''), ...(at ?? {}) }]);
      }
      throw e;
    }
  });
  return { text, name, config, rules, locator };
}

function compiledRule(expr: string, syntax: FilterSyntax, role: 'include' | 'exclude', caches: RecipeCaches): CompiledRule {
  const key = `${syntax}\u0000${role}\u0000${expr}`;
  let r = caches.rules.get(key);
  if (r === undefined) {
    r = syntax === 'jq' ? compileJqRule(expr, role) : compileJsonPathRule(expr, role);
    caches.rules.set(key, r);
  }
  return r;
}

function compiledSelector(expr: string, syntax: FilterSyntax, caches: RecipeCaches): CompiledSelector {
  const key = `${syntax}\u0000${expr}`;
  let r = caches.selectors.get(key);
  if (r === undefined) {
    r = syntax === 'jq' ? compileJqSelector(expr) : compileJsonPathSelector(expr);
    caches.selectors.set(key, r);
  }
  return r;
}

/** The column program of a rule; a compile failure of our own never hides the rule (it falls back to exact). */
function planOf(expr: string, syntax: FilterSyntax, caches: RecipeCaches): RulePlan {
  const key = `${syntax}\u0000${expr}`;
  let p = caches.plans.get(key);
  if (p === undefined) {
    try {
      p = syntax === 'jq' ? planJq(expr, caches.interner) : planJsonPath(expr, caches.interner);
    } catch (e) {
      if (!(e instanceof FilterCompileError) && !(e instanceof Error)) throw e;
      p = { run: null, reason: `not compiled: ${e.message}`, keys: [], operands: [] };
    }
    caches.plans.set(key, p);
  }
  return p;
}
