// The shipped presets run end to end: `assay tag -c X` then `assay mix -c X` on a small dataset.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonlFile, REPO_ROOT, tempDir, writeJsonl } from '../workers/engine/testing.js';
import { ensureBuilt, runCli } from '../workers/engine/cli/run-cli.js';
import { finewebDocs } from '../workers/engine/cli/test-corpus.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(() => ensureBuilt());

const docs = finewebDocs().slice(0, 5);

describe('configs/', () => {
  for (const preset of ['fineweb.yaml', 'dolma-c4.yaml']) {
    it(`${preset}: tags with its preset, then mixes`, () => {
      const cwd = join(dir, preset);
      writeJsonl(join(cwd, 'dataset/documents/part-0.jsonl.gz'), docs);
      const config = join(REPO_ROOT, 'configs', preset);
      const tag = runCli(['tag', '-c', config, '--quiet'], { cwd });
      expect(tag.stderr).toBe('');
      expect(tag.code).toBe(0);
      const mix = runCli(['mix', '-c', config], { cwd });
      expect(mix.code, mix.stderr).toBe(0);
      const outDir = join(cwd, 'output', preset.replace('.yaml', ''));
      const [shard] = readdirSync(outDir).filter((f) => f.endsWith('.gz'));
      const kept = readJsonlFile(join(outDir, shard as string));
      const ids = kept.map((d) => d.id);
      expect(ids).toContain('good');
      expect(ids).not.toContain('short');
      expect(ids).not.toContain('repetitive');
      const good = kept.find((d) => d.id === 'good');
      expect(String(good?.text)).not.toContain('jane.doe@example.net');
      if (preset === 'fineweb.yaml') {
        expect(ids).not.toContain('french');
        // C4 removes the "javascript" line from a kept document.
        expect(String(kept.find((d) => d.id === 'good-2')?.text ?? '')).not.toMatch(/javascript/i);
      }
      expect(mix.stdout).toMatch(/dropped by \(first rule that fired\)/);
    });
  }
});

describe('configs/fineweb-tunable.yaml', () => {
  it('keeps exactly what fineweb.yaml keeps, rule by rule on the sub-rule values, labelled by its comments', { timeout: 180_000 }, () => {
    const cwd = join(dir, 'tunable');
    writeJsonl(join(cwd, 'dataset/documents/part-0.jsonl.gz'), finewebDocs(40));
    const run = (args: string[]): string => {
      const r = runCli(args, { cwd });
      expect(r.code, `assay ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    const config = (name: string): string => join(REPO_ROOT, 'configs', name);
    run(['tag', '-c', config('fineweb.yaml'), '--quiet']);
    // The tunable preset's tagger preset is the same: nothing left to tag.
    expect(run(['tag', '-c', config('fineweb-tunable.yaml')])).toMatch(/skipped 1|1 skipped|unchanged/);
    run(['index', 'dataset', '--quiet']);
    type P = { kept_ids: string[]; total: { kept: { docs: number } }; rules: { label?: string; sweep?: unknown }[] };
    const flags = JSON.parse(run(['preview', '-c', config('fineweb.yaml'), '--index', 'dataset', '--json', '--ids'])) as P;
    const tunable = JSON.parse(run(['preview', '-c', config('fineweb-tunable.yaml'), '--index', 'dataset', '--json', '--ids'])) as P;
    expect(flags.total.kept.docs).toBeGreaterThan(0);
    expect(flags.total.kept.docs).toBeLessThan(47);
    expect([...tunable.kept_ids].sort()).toEqual([...flags.kept_ids].sort());
    expect(flags.rules[2]?.label).toBe('GopherRepetitionFilter: repeated lines, paragraphs or n-grams');
    expect(tunable.rules.find((r) => r.label === 'Gopher repetition: top 4-gram fraction > 0.16')?.sweep).toMatchObject({ key: 'fineweb__gopher_repetition__top_4_gram', op: '>', threshold: 0.16 });
    run(['mix', '-c', config('fineweb-tunable.yaml'), '--quiet']);
    const out = join(cwd, 'output/fineweb-tunable');
    const mixed = readdirSync(out).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(out, f)).map((d) => String(d.id)));
    expect(mixed.sort()).toEqual([...tunable.kept_ids].sort());
    // The flag recipe's explanation names the failing sub-rule.
    const ex = run(['explain', '-c', config('fineweb.yaml'), '--index', 'dataset', '--id', 'repetitive']);
    expect(ex).toMatch(/DROPPED: dropped by rule 2: duplicated line fraction 0\.9\d* > 0\.3/);
    expect(ex).toMatch(/failing sub-rule: top 2-gram fraction/);
  });
});
