// Explains one document under a recipe: each rule's verdict and the values it read, its fate, and the output text.
import type { ExplainResult, RuleVerdict } from '../../../../shared/contract/preview.js';
import type { Json } from '../../mix/filters/types.js';
import { applyReplacements, codePointOffsets, type Replacement } from '../../mix/spans.js';
import type { EngineState, StreamAnalysis } from '../preview/analyze.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import { exactFailure } from '../recipe/evaluate.js';
import { dropSentence } from './reasons.js';
import { docValue, subRulesOf } from './subrules.js';

export function explain(recipe: ParsedRecipe, streams: readonly StreamAnalysis[], st: EngineState, g: number): ExplainResult {
  const f = st.data.fileOf(g);
  const raw = st.mat.raw(g);
  const base = {
    id: typeof raw.id === 'string' ? raw.id : JSON.stringify(raw.id),
    source: typeof raw.source === 'string' ? raw.source : '',
    file: f.path,
    line: st.data.ordOf(f, g) + 1,
    text: typeof raw.text === 'string' ? raw.text : '',
  };
  const a = streams.find((s) => s.scope.docs.has(g));
  if (a === undefined) {
    return { ...base, stream: null, fate: 'outside', reason: `no stream of the recipe reads ${f.path}`, rules: [], replaced: [] };
  }
  const doc = st.mat.merged(g, a.scope.merge.sets);
  const verdicts: RuleVerdict[] = [];
  const notes: string[] = [];
  const sentences = new Map<number, string>();
  for (const spec of a.rules) {
    const v = verdictOf(spec, doc, a, g, notes, sentences, st);
    verdicts.push(v);
  }
  const droppedBy = a.rules.find((r) => a.sequential.get(r.index)?.has(g))?.index;
  const kept = a.kept.has(g);
  const reps = (a.spans?.reps.get(g) ?? []) as (Replacement & { rule: number })[];
  const replacers = a.rules.filter((r) => r.replacer);
  const text = base.text;
  const units = codePointOffsets(text);
  const u = (cp: number): number => units[Math.min(cp, units.length - 1)] ?? text.length;
  const replaced: ExplainResult['replaced'] = [];
  const output = applyReplacements(text, reps, (from, to, r) => {
    const rule = replacers[(r as Replacement & { rule: number }).rule]?.index ?? -1;
    replaced.push({ start: u(from), end: u(to), rule, replacement: r.replacement.split('{}').join(text.slice(u(from), u(to))) });
  });
  const reason =
    kept ? `no rule of stream '${a.scope.name}' drops it${notes.length ? ` (${notes.join('; ')})` : ''}`
    : droppedBy !== undefined ? `dropped by rule ${droppedBy}: ${sentences.get(droppedBy) ?? `\`${a.rules.find((r) => r.index === droppedBy)?.expression}\``}`
    : 'dropped';
  return {
    ...base,
    stream: a.scope.name,
    fate: kept ? 'kept' : 'dropped',
    ...(droppedBy !== undefined && !kept ? { droppedBy } : {}),
    reason,
    rules: verdicts,
    ...(kept ? { output } : {}),
    replaced,
  };
}

function verdictOf(spec: RuleSpec, doc: Json, a: StreamAnalysis, g: number, notes: string[], sentences: Map<number, string>, st: EngineState): RuleVerdict {
  const common = { index: spec.index, kind: spec.kind, expression: spec.expression };
  if (spec.filter) {
    const f = spec.filter;
    const values = f.plan.operands.map((o) => ({ key: o.label, value: o.get(doc) }));
    const failure = exactFailure(f.rule, doc);
    let matched = false;
    if (failure !== null) notes.push(`rule ${spec.index} fails on it (${failure}) but is never reached`);
    else matched = f.rule.evaluate([doc])[0] === true;
    const drop = f.kind === 'include' ? !matched : matched;
    // DataTrove's verdict flags: name the sub-rules that failed, with value, comparator and threshold.
    const because = subRulesOf(st.root, st.data).failing(f.plan.keys, (k) => docValue(doc, k));
    sentences.set(spec.index, dropSentence(spec, a, because, values[0] !== undefined ? { known: true, value: values[0].value } : { known: false, value: undefined }));
    return { ...common, verdict: drop ? 'drop' : 'keep', values, path: f.plan.run !== null ? 'compiled' : 'exact', ...(because.length > 0 ? { because } : {}) };
  }
  if (spec.kind === 'min_text_length') {
    const trimmed = a.spans !== null && a.spans.touched.has(g) ? a.spans.trimmed()[g] : undefined;
    const short = a.short?.has(g) ?? false;
    const value = trimmed ?? (a.ctx.data.trimmed[g] as number);
    sentences.set(spec.index, `its text is ${value} UTF-8 bytes after span replacement and trimming, below ${a.minLen}`);
    return { ...common, verdict: short ? 'drop' : 'keep', values: [{ key: 'trimmed text bytes', value }], path: trimmed === undefined ? 'compiled' : 'exact' };
  }
  if (spec.kind === 'sample') {
    const u = st.units(a.sampling.seed)[g] as number;
    const fraction = a.sampling.fraction(st.data.sourceNames[st.data.source[g] as number] ?? '');
    sentences.set(spec.index, `it is not drawn: its position ${u.toFixed(6)} (hash of its id and seed ${a.sampling.seed}) is not below the fraction ${fraction}`);
    return { ...common, verdict: a.notSampled?.has(g) ? 'drop' : 'keep', values: [{ key: 'sample position', value: u }, { key: 'fraction', value: fraction }], path: 'compiled' };
  }
  const spans = (a.spans?.reps.get(g) ?? []).filter((r) => r.rule === spec.replacer?.position);
  return { ...common, verdict: 'keep', values: [{ key: spec.expression, value: spans.map((s) => [s.start, s.end]) }], path: a.spans?.compiled[spec.replacer?.position ?? 0] ? 'compiled' : 'exact' };
}
