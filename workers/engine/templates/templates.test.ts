// Every starter renders for a workspace, parses with its kind's schema, and runs: `assay init` then the real commands.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dedupeConfig } from '../../../shared/dedupe/schema.js';
import { minhashConfig } from '../../../shared/dedupe/minhash-schema.js';
import { parseConfigText, parseRecipe } from '../../../shared/recipe/load.js';
import { tokensConfig } from '../../../shared/tokenize/schema.js';
import { deconConfig } from '../decon/config.js';
import { ensureBuilt, runCli } from '../cli/run-cli.js';
import { finewebDocs } from '../cli/test-corpus.js';
import { tagSettingsFromText } from '../tag/config-file.js';
import { readJsonlFile, scratchDir, writeJsonl } from '../testing.js';
import { listTemplates, renderTemplate, type TemplateContext } from './index.js';

beforeAll(() => ensureBuilt());

const ctx = { env: {}, cpuCount: 2 };

/** Parses a rendered starter with the schema of its kind (what `jobs.start` / `assay <kind> -c` accept). */
function parsesAs(kind: string, text: string): void {
  const ok = (r: { ok: boolean; issues?: unknown }): void => expect(r.ok, JSON.stringify(r.issues)).toBe(true);
  if (kind === 'mix') ok(parseRecipe(text, ctx));
  else if (kind === 'tag') expect(tagSettingsFromText(text, 'x.yaml').documents?.length).toBeGreaterThan(0);
  else if (kind === 'dedupe') ok(parseConfigText(text, dedupeConfig, ctx));
  else if (kind === 'minhash') ok(parseConfigText(text, minhashConfig, ctx));
  else if (kind === 'tokens') ok(parseConfigText(text, tokensConfig, ctx));
  else if (kind === 'decon') ok(parseConfigText(text, deconConfig, ctx));
  else throw new Error(`no schema for ${kind}`);
}

describe('templates', () => {
  it('each renders for a workspace (as the app and as the CLI sees it) and parses with its schema', () => {
    const parent = scratchDir();
    const ws = join(parent, 'data');
    writeJsonl(join(ws, 'documents/a.json.gz'), [{ id: 'a', text: 'x' }]);
    writeJsonl(join(ws, 'documents/sub/b.jsonl.zst'), [{ id: 'b', text: 'y' }]);
    const catalogue: TemplateContext['catalogue'] = [
      { key: 'g__gopher_v1__word_count', set: 'g', kind: 'document', docs: 10, min: 1, max: 900, quantiles: [{ p: 0.01, value: 3 }, { p: 0.5, value: 120 }, { p: 0.99, value: 850 }] },
      { key: 'fw__gopher_repetition__kept', set: 'fw', kind: 'document', docs: 10, min: 0, max: 1, quantiles: [{ p: 0.5, value: 1 }] },
      { key: 'fw__gopher_repetition__top_2_gram', set: 'fw', kind: 'document', docs: 10, min: 0, max: 0.5, quantiles: [] },
      { key: 'pii__pii_regex_v2__EMAIL_ADDRESS', set: 'pii', kind: 'spans', docs: 3, min: 1, max: 1, quantiles: [] },
    ];
    expect(listTemplates().map((t) => t.kind).sort()).toEqual(['decon', 'dedupe', 'minhash', 'mix', 'mix', 'mix', 'mix', 'tag', 'tokens']);
    for (const t of listTemplates()) {
      const app = renderTemplate(t.id, { workspace: ws, base: ws, catalogue });
      const cli = renderTemplate(t.id, { workspace: ws, base: parent, catalogue });
      parsesAs(t.kind, app.text);
      parsesAs(t.kind, cli.text);
      expect(app.suggestedPath).toMatch(/^configs\/[\w-]+\.yaml$/);
      // Globs name the workspace's own files: both extensions, any depth; from the parent, under data/.
      expect(app.text, t.id).toContain('- documents/**/*.json.gz');
      expect(app.text, t.id).toContain('- documents/**/*.jsonl.zst');
      expect(cli.text, t.id).toContain('- data/documents/**/*.json.gz');
      expect(app.text).not.toMatch(/dataset\//);
    }
    const starter = renderTemplate('starter', { workspace: ws, base: ws, catalogue }).text;
    expect(starter).toContain('# g__gopher_v1__word_count above its 99th percentile (850)');
    expect(starter).toContain('@.g__gopher_v1__word_count[0][2] > 850)]');
    expect(starter).toContain('@.fw__gopher_repetition__kept[0][2] == 0)]');
    expect(starter).not.toContain('top_2_gram');
    expect(starter).toMatch(/span: \$\.attributes\.pii__pii_regex_v2__EMAIL_ADDRESS\n\s+min_score: 0\.5\n\s+replacement: " \|\|\|EMAIL_ADDRESS\|\|\| "/);
  });

  it('`assay init fineweb --workspace dataset`, then the README FineWeb chain, run from the parent folder', { timeout: 180_000 }, () => {
    const cwd = scratchDir();
    writeJsonl(join(cwd, 'dataset/documents/part-0.jsonl.gz'), finewebDocs(12));
    const run = (args: string[], at = cwd): string => {
      const r = runCli(args, { cwd: at });
      expect(r.code, `assay ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    expect(run(['init', 'fineweb', '--workspace', 'dataset'])).toMatch(/wrote configs\/fineweb\.yaml/);
    const again = runCli(['init', 'fineweb', '--workspace', 'dataset'], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists; not overwritten \(--force replaces it\)/);
    run(['init', 'fineweb', '--workspace', 'dataset', '--force']);
    run(['tag', '-c', 'configs/fineweb.yaml', '--quiet']);
    run(['index', 'dataset', '--quiet']);
    const preview = JSON.parse(run(['preview', '-c', 'configs/fineweb.yaml', '--index', 'dataset', '--json', '--ids'])) as { kept_ids: string[] };
    run(['mix', '-c', 'configs/fineweb.yaml', '--quiet']);
    const mixed = readdirSync(join(cwd, 'output/fineweb')).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(cwd, 'output/fineweb', f)).map((d) => String(d.id)));
    expect(mixed.length).toBeGreaterThan(0);
    expect([...preview.kept_ids].sort()).toEqual(mixed.sort());
    run(['tokens', '--documents', 'output/fineweb/*.gz', '--destination', 'tokens', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '--dtype', 'uint16', '--quiet']);
    expect(readdirSync(join(cwd, 'tokens')).some((f) => f.endsWith('.npy'))).toBe(true);
  });

  it('the per-kind starters and the catalogue recipe run in a workspace, as the app runs them (from its root)', { timeout: 180_000 }, () => {
    const ws = scratchDir();
    writeJsonl(join(ws, 'documents/a.jsonl.gz'), finewebDocs(15).map((d, i) => (i % 4 === 0 ? { ...d, text: `${d.text}\nMail me at someone${i}@example.org now.` } : d)));
    const run = (args: string[]): string => {
      const r = runCli(args, { cwd: ws });
      expect(r.code, `assay ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    for (const kind of ['tag', 'dedupe', 'minhash', 'tokens', 'decon']) run(['init', kind, '--quiet']);
    run(['tag', '-c', 'configs/tag.yaml', '--quiet']);
    run(['dedupe', '-c', 'configs/dedupe.yaml', '--quiet']);
    run(['minhash', '-c', 'configs/minhash.yaml', '--quiet']);
    expect(['starter', 'dedupe_paragraphs', 'minhash'].every((s) => existsSync(join(ws, 'attributes', s)))).toBe(true);
    run(['tokens', '-c', 'configs/tokens.yaml', '--quiet']);
    expect(readdirSync(join(ws, 'tokens')).some((f) => f.endsWith('.npy'))).toBe(true);
    // The decon starter names an eval file for the user to supply: missing, the run says which; given, it tags.
    const missing = runCli(['decon', '-c', 'configs/decon.yaml', '--quiet'], { cwd: ws });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/evals\/my_eval\.jsonl/);
    const planted = String(finewebDocs(15)[3]!.text).split(/\s+/).slice(0, 20).join(' ');
    writeJsonl(join(ws, 'evals/my_eval.jsonl'), [{ question: planted }, { question: 'an item that no document of this workspace contains, not even partly, in any order' }]);
    run(['decon', '-c', 'configs/decon.yaml', '--quiet']);
    const hits = readJsonlFile(join(ws, 'attributes/decon/a.jsonl.gz')).filter((r) => ((r.attributes as Record<string, [number, number, number][]>)['decon__decon__items']?.[0]?.[2] ?? 0) > 0);
    expect(hits.map((r) => r.id)).toContain(finewebDocs(15)[3]!.id);
    run(['index', '.', '--quiet']);
    run(['init', 'starter', '--quiet']);
    const text = readFileSync(join(ws, 'configs/starter.yaml'), 'utf8');
    expect(text).toMatch(/starter__gopher_v1__word_count/);
    expect(text).toMatch(/replacement: " \|\|\|EMAIL_ADDRESS\|\|\| "/);
    const preview = JSON.parse(run(['preview', '-c', 'configs/starter.yaml', '--index', '.', '--json', '--ids'])) as { kept_ids: string[]; rules: { label?: string }[] };
    const labels = preview.rules.map((r) => r.label ?? '');
    expect(labels.some((l) => /above its 99th percentile/.test(l))).toBe(true);
    // The decon run's items count becomes one rule that drops any overlap (not a percentile); its n-gram count none.
    expect(labels).toContain('decon__decon__items > 0: drops documents that repeat an eval item');
    expect(labels.filter((l) => l.includes('__decon__'))).toHaveLength(1);
    expect(preview.kept_ids).not.toContain(finewebDocs(15)[3]!.id);
    run(['mix', '-c', 'configs/starter.yaml', '--quiet']);
    const mixed = readdirSync(join(ws, 'output/starter')).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(ws, 'output/starter', f)));
    expect(mixed.map((d) => String(d.id)).sort()).toEqual([...preview.kept_ids].sort());
    expect(mixed.some((d) => String(d.text).includes('|||EMAIL_ADDRESS|||'))).toBe(true);
  });
});
