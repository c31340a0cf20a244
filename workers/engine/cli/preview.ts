// `assay preview -c recipe.yaml --index ROOT`: what the recipe keeps and drops, per rule, from the index.
import { readFile } from 'node:fs/promises';
import type { CountBySource, PreviewResult } from '../../../shared/contract/preview.js';
import { AssayError } from '../errors.js';
import { PreviewEngine } from '../index/index.js';
import { intOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import type { SampleSpec } from '../index/store/data.js';

export async function readRecipe(args: ParsedArgs, verb: string): Promise<{ path: string; text: string; root: string }> {
  const path = stringOption(args, 'config');
  const root = stringOption(args, 'index');
  if (path === undefined || root === undefined) throw new UsageError(`${verb} needs a recipe and an index: assay ${verb} -c recipe.yaml --index DATASET_ROOT`);
  try {
    return { path, text: await readFile(path, 'utf8'), root };
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
}

const n = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number, of: number): string => (of > 0 ? `${((100 * x) / of).toFixed(1)}%` : '-');

/** Opens the index for a CLI verb: relative paths in the recipe resolve against the working directory, as `assay mix` resolves them. */
export const openForCli = (root: string, sample?: SampleSpec): PreviewEngine => PreviewEngine.open(root, { baseDir: process.cwd(), ...(sample ? { sample } : {}) });

/** `--sample N [--sample-seed S] [--level L]`, checked; undefined without --sample. */
export function sampleOption(args: ParsedArgs): SampleSpec | undefined {
  const docs = intOption(args, 'sample');
  const seed = intOption(args, 'sample-seed', 0);
  const raw = args.options.get('level');
  if (docs === undefined) {
    const stray = seed !== undefined ? '--sample-seed' : raw !== undefined ? '--level' : null;
    if (stray) throw new UsageError(`${stray} goes with --sample N`);
    return undefined;
  }
  const level = raw === undefined ? 0.95 : Number(raw);
  if (!(level > 0 && level < 1)) throw new UsageError(`--level must be a number between 0 and 1 (e.g. 0.95), got '${String(raw)}'`);
  return { docs, seed: seed ?? 0, level };
}

/** An estimate and its interval, e.g. `388,641 (95% CI 385,777–391,513)`; exact figures as they are. */
function withCi(x: number, ci: [number, number] | undefined, level: number): string {
  return ci ? `≈${n(x)} (${Math.round(level * 100)}% CI ${n(ci[0])}–${n(ci[1])})` : n(x);
}

export function formatPreview(r: PreviewResult): string {
  const t = r.total;
  const tok = r.tokens.kind === 'exact' ? 'tokens' : 'est. tokens';
  const level = r.sample?.level ?? 1;
  const lines = r.sample
    ? [
        `documents ${n(t.docs)}  kept ${withCi(t.kept.docs, t.kept.ci?.docs, level)} (${pct(t.kept.docs, t.docs)})  dropped ${withCi(t.dropped.docs, t.dropped.ci?.docs, level)}`,
        `${tok} kept ${withCi(t.kept.tokens, t.kept.ci?.tokens, level)} of ${n(t.tokens)} (${pct(t.kept.tokens, t.tokens)})${r.outsideStreams ? `  outside every stream ${withCi(r.outsideStreams, r.outsideStreamsCi, level)}` : ''}`,
      ]
    : [
        `documents ${n(t.docs)}  kept ${n(t.kept.docs)} (${pct(t.kept.docs, t.docs)})  dropped ${n(t.dropped.docs)} (${pct(t.dropped.docs, t.docs)})` +
          `  ${tok} kept ${n(t.kept.tokens)} of ${n(t.tokens)} (${pct(t.kept.tokens, t.tokens)})${r.outsideStreams ? `  outside every stream ${n(r.outsideStreams)}` : ''}`,
      ];
  // A sample's columns are estimates; each carries its interval's half-width (the JSON output has the bounds).
  const width = r.sample ? 19 : 11;
  lines.push('', `${'rule'.padEnd(5)}${'kind'.padEnd(18)}${'path'.padEnd(10)}${'alone'.padStart(width)}${'exclusive'.padStart(width)}${'in order'.padStart(width)}${tok.padStart(r.sample ? 23 : 13)}  rule`);
  const pm = (x: number, ci: [number, number] | undefined): string => (ci ? `${n(x)} ±${n(Math.max(x - ci[0], ci[1] - x))}` : n(x));
  for (const rule of r.rules) {
    const c = (x: CountBySource): string => pm(x.docs, x.ci?.docs).padStart(width);
    // The rule's label (its YAML comment, else key + comparator + threshold): the JSON output has the expression.
    const name = rule.label ?? rule.expression;
    const rep = rule.replacement;
    const what = rep ? `${name}: ${pm(rep.chars, rep.ci?.chars)} chars in ${pm(rep.docs, rep.ci?.docs)} docs replaced` : name;
    lines.push(
      `${String(rule.index).padEnd(5)}${rule.kind.padEnd(18)}${rule.path.padEnd(10)}${c(rule.alone)}${c(rule.exclusive)}${c(rule.sequential)}${pm(rule.sequential.tokens, rule.sequential.ci?.tokens).padStart(r.sample ? 23 : 13)}  ${what.length > 100 ? `${what.slice(0, 97)}…` : what}`,
    );
    if (rule.missingKeys.length) lines.push(`${' '.repeat(5)}no document has ${rule.missingKeys.map((k) => `\`${k}\``).join(', ')}`);
  }
  const sources = Object.entries(t.bySource);
  if (sources.length > 1) {
    lines.push('', 'per source (kept / documents):');
    for (const [s, c] of sources) {
      const k = t.kept.bySource[s];
      lines.push(`  ${(s || '(none)').padEnd(20)} ${pm(k?.docs ?? 0, k?.ci?.docs)} / ${pm(c.docs, c.ci?.docs)}`);
    }
  }
  // The note says which tokenizer counted, or why figures are (partly) estimates.
  const over = r.sample
    ? `estimated from a uniform sample of ${n(r.sample.docs)} of ${n(r.sample.of)} indexed documents (seed ${r.sample.seed}; ± is the ${Math.round(level * 100)}% confidence interval) in ${r.elapsedMs} ms; run without --sample for exact figures`
    : `computed over every indexed document in ${r.elapsedMs} ms`;
  lines.push('', `${over}; ${r.tokens.note}`);
  return lines.join('\n') + '\n';
}

export async function previewCommand(args: ParsedArgs): Promise<number> {
  const idsOpt = args.options.get('ids');
  if (typeof idsOpt === 'string') throw new UsageError(`preview --ids takes no value (got '${idsOpt}'); remove --ids takes a file`);
  const sample = sampleOption(args);
  if (sample && args.options.get('ids') === true) throw new UsageError('preview --ids lists every kept document, which a sample cannot: drop --sample or --ids');
  const { path, text, root } = await readRecipe(args, 'preview');
  const engine = openForCli(root, sample);
  try {
    const ids = args.options.get('ids') === true;
    const r = engine.preview(text, { ids, recipePath: path });
    if (args.options.get('json') === true) {
      const { keptIds, ...rest } = r;
      process.stdout.write(JSON.stringify({ ...rest, ...(ids ? { kept_ids: keptIds ?? [] } : {}) }) + '\n');
    } else {
      process.stdout.write(formatPreview(r));
      if (ids) process.stdout.write((r.keptIds ?? []).join('\n') + ((r.keptIds ?? []).length ? '\n' : ''));
    }
    return 0;
  } finally {
    engine.close();
  }
}
