// FineWeb explanations name DataTrove's failing sub-rule with value, comparator and threshold (recorded options, else defaults).
import { readdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finewebDocs } from '../../cli/test-corpus.js';
import { BUILTIN_FAMILIES } from '../../tag/registry.js';
import { runTag } from '../../tag/runtime.js';
import { scratchDir, writeJsonl } from '../../testing.js';
import { buildIndex, PreviewEngine } from '../index.js';
import { SUB_RULES } from './subrule-table.js';

const holds = (v: number, op: string, t: number): boolean => (op === '<' ? v < t : op === '<=' ? v <= t : op === '>' ? v > t : v >= t);

const TEXTS = [
  ...finewebDocs(10).map((d) => d.text),
  '',
  'word',
  '#tag #tag #tag words here',
  'lorem ipsum dolor sit amet.\nAnother line {with} braces.',
  'Wait...\nMore...\nAnd more…',
  `${'the same line again and again\n'.repeat(12)}`,
  Array.from({ length: 30 }, (_, i) => `• item ${i}`).join('\n'),
];

describe('the sub-rule table agrees with the taggers', () => {
  for (const [name, table] of Object.entries(SUB_RULES)) {
    it(`${name}: <rule>_fail = 1 exactly when <rule> ${'<op>'} threshold, for default and changed options`, async () => {
      const spec = BUILTIN_FAMILIES.flatMap((f) => f.taggers).find((t) => t.name === name);
      expect(spec, name).toBeDefined();
      const variants = name === 'regex_filter' ? [{ regex_exp: 'lorem' }] : [{}, name === 'gopher_repetition' ? { top_n_grams: [[2, 0.05], [4, 0.02]], dup_line_frac: 0.01 } : name === 'fineweb_quality' ? { profile: 'fineweb-2024', line_punct_thr: 0.5 } : {}];
      let checked = 0;
      for (const raw of variants) {
        const options = spec!.options ? spec!.options.parse(raw) : {};
        const tagger = await spec!.create(options, { seed: 0, cwd: process.cwd() });
        const defs = table(options as Record<string, unknown>);
        for (const text of TEXTS) {
          const spans = tagger.tag({ id: 'x', text, source: '', metadata: { url: 'https://example.com/buy-now' }, record: {} });
          const score = (type: string): number | undefined => spans.find((s) => s.type === type)?.score;
          for (const d of defs) {
            const fail = score(`${d.rule}_fail`);
            expect(fail, `${name}.${d.rule}_fail`).toBeDefined();
            const v = score(d.rule);
            if (d.op === undefined) {
              if (v !== undefined) expect(fail, `${name}.${d.rule} flag`).toBe(v);
            } else if (v !== undefined && d.threshold !== null && d.threshold !== undefined) {
              expect(fail === 1, `${name}.${d.rule} = ${v} ${d.op} ${d.threshold}`).toBe(holds(v, d.op, d.threshold));
              checked++;
            } else if (d.threshold === null) expect(fail).toBe(0);
          }
        }
      }
      if (name !== 'regex_filter' && name !== 'url_filter') expect(checked).toBeGreaterThan(0);
    });
  }
});

const RECIPE = `streams:
  - name: fw
    documents: [documents/*.jsonl.gz]
    attributes: [fw]
    output: {path: out/fw}
    filter:
      exclude:
        # Gopher repetition
        - "$.attributes[?(@.fw__gopher_repetition__kept && @.fw__gopher_repetition__kept[0] && @.fw__gopher_repetition__kept[0][2] == 0)]"
        - "$.attributes[?(@.fw__gopher_quality__kept && @.fw__gopher_quality__kept[0] && @.fw__gopher_quality__kept[0][2] == 0)]"  # Gopher quality
        - "$.attributes[?(@.fw__gopher_quality__gopher_short_doc && @.fw__gopher_quality__gopher_short_doc[0] && @.fw__gopher_quality__gopher_short_doc[0][2] < 20)]"
`;

async function dataset(options: Record<string, unknown>): Promise<string> {
  const root = scratchDir();
  writeJsonl(join(root, 'documents/a.jsonl.gz'), finewebDocs(6));
  await runTag({
    documents: [join(root, 'documents/*.jsonl.gz')],
    taggers: [{ name: 'gopher_repetition', options, experiment: 'fw' }, { name: 'gopher_quality', experiment: 'fw' }],
  });
  return root;
}

describe('explanations and table reasons name the failing sub-rule', () => {
  it('with the thresholds recorded when the tagger ran', async () => {
    const root = await dataset({ top_n_grams: [[2, 0.2], [3, 0.18], [4, 0.05]] });
    await buildIndex(root);
    const engine = PreviewEngine.open(root);
    try {
      const p = engine.preview(RECIPE);
      const [rep, qual, short] = p.rules;
      expect(rep?.label).toBe('Gopher repetition');
      expect(qual?.label).toBe('Gopher quality');
      expect(short?.label).toBe('fw__gopher_quality__gopher_short_doc < 20');
      expect(rep?.subRules).toContainEqual({ key: 'fw__gopher_repetition__top_4_gram', failKey: 'fw__gopher_repetition__top_4_gram_fail', label: 'top 4-gram fraction', op: '>', threshold: 0.05 });
      expect(rep?.subRules?.some((s) => s.key === 'fw__gopher_repetition__dup_line_frac')).toBe(true);
      expect(short?.subRules).toBeUndefined();

      const e = engine.explain(RECIPE, 'repetitive');
      expect(e.fate).toBe('dropped');
      expect(e.droppedBy).toBe(0);
      const because = e.rules[0]?.because ?? [];
      expect(because.length).toBeGreaterThan(0);
      for (const b of because) {
        expect(b.value).not.toBeNull();
        expect(b.text).toBe(`${b.label} ${b.text.slice(b.label.length + 1)}`);
        expect(holds(b.value as number, b.op as string, b.threshold as number)).toBe(true);
      }
      expect(because.map((b) => b.key)).toContain('fw__gopher_repetition__dup_line_frac');
      expect(e.reason).toMatch(new RegExp(`^dropped by rule 0: ${because[0]!.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(e.reason).toMatch(/so `fw__gopher_repetition__kept` = 0$/);
      expect(e.reason).not.toMatch(/default/);

      const page = engine.documentsPage({ offset: 0, limit: 100, recipeText: RECIPE, fate: 'dropped' });
      const row = page.rows.find((r) => r.id === 'repetitive');
      expect(row?.reason).toBe(e.reason.replace(/^dropped by rule 0: /, ''));
      // A rule on the value itself explains with its own comparison.
      const shortDoc = page.rows.find((r) => r.droppedBy === 2);
      if (shortDoc) expect(shortDoc.reason).toMatch(/^`fw__gopher_quality__gopher_short_doc` = \d+ < 20$/);
      // Token figures are ⌈bytes/4⌉ estimates and say so everywhere.
      expect(page.rows.every((r) => r.tokensExact === false)).toBe(true);
      expect(engine.sources().every((s) => s.tokensExact === false)).toBe(true);
      expect(p.tokens.kind).toBe('estimate');
    } finally {
      engine.close();
    }
  });

  it("falls back to the tagger's defaults, and says so, when no marker recorded the options", async () => {
    const root = await dataset({});
    for (const d of readdirSync(join(root, 'attributes/fw'))) if (d === '.assay-done') rmSync(join(root, 'attributes/fw', d), { recursive: true });
    await buildIndex(root);
    const engine = PreviewEngine.open(root);
    try {
      const rule = engine.preview(RECIPE).rules[0];
      expect(rule?.subRules).toContainEqual(expect.objectContaining({ key: 'fw__gopher_repetition__top_4_gram', label: 'top 4-gram fraction (default threshold)', threshold: 0.16 }));
      const e = engine.explain(RECIPE, 'repetitive');
      expect(e.rules[0]?.because?.[0]?.text).toMatch(/ \(default\)$/);
    } finally {
      engine.close();
    }
  });
});

describe('markers under confinement', () => {
  it('reads no marker a symbolic link takes outside the dataset when the engine confines paths (thresholds fall back to defaults)', async () => {
    const root = await dataset({ top_n_grams: [[2, 0.2], [3, 0.18], [4, 0.05]] });
    const outside = join(scratchDir(), 'markers');
    renameSync(join(root, 'attributes/fw/.assay-done'), outside);
    symlinkSync(outside, join(root, 'attributes/fw/.assay-done'));
    await buildIndex(root);
    const real = realpathSync(root);
    const confine = (p: string): void => {
      if (!realpathSync(p).startsWith(`${real}/`)) throw new Error(`${p} leads outside`);
    };
    const top4 = (e: PreviewEngine) => e.preview(RECIPE).rules[0]?.subRules?.find((x) => x.key === 'fw__gopher_repetition__top_4_gram');
    const free = PreviewEngine.open(root);
    const confined = PreviewEngine.open(root, { checkPath: confine });
    try {
      expect(top4(free)).toMatchObject({ threshold: 0.05, label: 'top 4-gram fraction' });
      expect(top4(confined)).toMatchObject({ threshold: 0.16, label: 'top 4-gram fraction (default threshold)' });
    } finally {
      free.close();
      confined.close();
    }
  });
});
