// CLI: assay index / preview / explain / lint on Dolma's mixer fixture, as a user runs them.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, readJsonlFile, scratchDir } from '../testing.js';
import { runCli as run } from './run-cli.js';

const MIXER = join(CONFORMANCE, 'dolma/mixer');

/** Dolma's fixture layout: the recipe reads `mixer/documents/*.gz`, relative to the folder holding `mixer/`, where it runs. */
function workspace(): { root: string; recipe: string; cwd: string } {
  const cwd = scratchDir();
  const root = join(cwd, 'mixer');
  cpSync(MIXER, root, { recursive: true });
  const recipe = join(cwd, 'recipe.json');
  writeFileSync(recipe, readFileSync(join(MIXER, 'configs/mixer.json'), 'utf8'));
  return { root, recipe, cwd };
}

describe('assay index / preview / explain / lint', () => {
  it('indexes a dataset, then previews, explains and lints a recipe against it', () => {
    const { root, recipe, cwd } = workspace();
    const runCli = (args: string[]) => run(args, { cwd });
    const idx = runCli(['index', root]);
    expect(idx.code, idx.stderr).toBe(0);
    expect(idx.stdout).toMatch(/indexed 10 documents in 1 file\(s\) \(0 unchanged, not re-read\), 4 attribute set\(s\) → .*\.assay\/index\.sqlite/);
    expect(runCli(['index', root]).stdout).toMatch(/\(1 unchanged, not re-read\)/);

    const table = runCli(['preview', '-c', recipe, '--index', root]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/documents 10 {2}kept 6 \(60\.0%\) {2}dropped 4 \(40\.0%\)/);
    expect(table.stdout).toMatch(/3 +exclude +compiled +2 +1 +1 .* toxicity > 0\.8$/m);

    const json = runCli(['preview', '-c', recipe, '--index', root, '--json', '--ids']);
    const r = JSON.parse(json.stdout) as { total: { docs: number; kept: { docs: number } }; rules: unknown[]; kept_ids: string[] };
    expect(r.total).toMatchObject({ docs: 10, kept: { docs: 6 } });
    expect(r.rules).toHaveLength(4);
    expect(r.kept_ids.sort()).toEqual(readJsonlFile(join(MIXER, 'expected/mixer.json.gz')).map((d) => String(d.id)).sort());

    const id = 'http://bufvc.ac.uk/allbufvc/search.php?q=Discussion&sort=relevance';
    const ex = runCli(['explain', '-c', recipe, '--index', root, '--id', id]);
    expect(ex.code, ex.stderr).toBe(0);
    expect(ex.stdout).toMatch(/KEPT: no rule of stream 'mixer-test' drops it/);
    expect(ex.stdout).toMatch(/toxicity = 0\.3/);
    const exJson = JSON.parse(runCli(['explain', '-c', recipe, '--index', root, '--id', id, '--json']).stdout) as { fate: string; output: string };
    expect(exJson.fate).toBe('kept');

    const lint = runCli(['lint', '-c', recipe, '--index', root]);
    expect(lint).toMatchObject({ code: 0, stdout: expect.stringMatching(/no problems found/) });
  });

  it('preview --sample estimates from a uniform sample, with an interval for every figure; --ids and a bad --level are refused', () => {
    const { root, recipe, cwd } = workspace();
    const runCli = (args: string[]) => run(args, { cwd });
    expect(runCli(['index', root]).code).toBe(0);
    const table = runCli(['preview', '-c', recipe, '--index', root, '--sample', '5', '--sample-seed', '2']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^documents 10 {2}kept ≈[\d,]+ \(95% CI [\d,]+–[\d,]+\)/);
    expect(table.stdout).toMatch(/estimated from a uniform sample of \d+ of 10 indexed documents \(seed 2; ± is the 95% confidence interval\)/);
    const json = JSON.parse(runCli(['preview', '-c', recipe, '--index', root, '--sample', '5', '--sample-seed', '2', '--level', '0.9', '--json']).stdout) as {
      exact: boolean; sample: { docs: number; of: number; level: number }; total: { kept: { docs: number; ci: { docs: [number, number] } } }; rules: { alone: { ci: unknown } }[];
    };
    expect(json).toMatchObject({ exact: false, sample: { of: 10, level: 0.9 } });
    const [lo, hi] = json.total.kept.ci.docs;
    expect(lo).toBeLessThanOrEqual(json.total.kept.docs);
    expect(hi).toBeGreaterThanOrEqual(json.total.kept.docs);
    expect(hi).toBeLessThanOrEqual(10);
    for (const rule of json.rules) expect(rule.alone.ci).toBeDefined();
    const ids = runCli(['preview', '-c', recipe, '--index', root, '--sample', '5', '--ids']);
    expect(ids.code).toBe(2);
    expect(ids.stderr).toMatch(/--ids lists every kept document, which a sample cannot/);
    const level = runCli(['preview', '-c', recipe, '--index', root, '--sample', '5', '--level', '95']);
    expect(level.code).toBe(2);
    expect(level.stderr).toMatch(/--level must be a number between 0 and 1/);
    expect(runCli(['preview', '-c', recipe, '--index', root, '--level', '0.9']).stderr).toMatch(/--level goes with --sample N/);
  });

  it('resolves the recipe against the working directory, like mix: from elsewhere its glob leaves the index, and says so', () => {
    const { root, recipe, cwd } = workspace();
    expect(run(['index', root], { cwd }).code).toBe(0);
    const other = run(['preview', '-c', recipe, '--index', root], { cwd: root });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`reaches ${join(root, 'mixer/documents')} (relative paths resolve against ${root})`);
    expect(other.stderr).toMatch(/outside .*mixer\/documents, all the index covers/);
  });

  it('fails with located messages: a bad rule (exit 2), a missing index, lint errors (exit 1)', () => {
    const { root, recipe, cwd } = workspace();
    const runCli = (args: string[]) => run(args, { cwd });
    const noIndex = runCli(['preview', '-c', recipe, '--index', root]);
    expect(noIndex.code).toBe(2);
    expect(noIndex.stderr).toMatch(/has no index yet .*assay index/);
    expect(runCli(['index', root]).code).toBe(0);
    writeFileSync(recipe, readFileSync(recipe, 'utf8').replace('$.attributes[?(@.toxicity > 0.8)]', '$.attributes[?(@.toxicity >'));
    const bad = runCli(['preview', '-c', recipe, '--index', root]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/recipe\.json:\d+: streams\[0\]\.filter\.exclude\[2\]: cannot compile/);
    const lint = runCli(['lint', '-c', recipe, '--index', root]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toMatch(/recipe\.json:\d+: error \[syntax\]/);
    expect(runCli(['preview', '-c', recipe]).stderr).toMatch(/preview needs a recipe and an index/);
    expect(runCli(['index']).code).toBe(2);
  });
});
