// `assay index ROOT --tokenizer gpt2` through the built CLI: counts on the bundled pool, the total `assay tokens` writes, exact previews, a bad path.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from '../testing.js';
import { variedTexts } from '../tokenize/test-helpers.js';
import { ensureBuilt, runCli } from './run-cli.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(() => {
  ensureBuilt();
  const texts = variedTexts(11, 45);
  ['web', 'books', 'code'].forEach((source, f) => {
    const docs = texts.slice(f * 15, f * 15 + 15).map((text, i) => ({ id: `${source}-${i}`, text: i === 4 ? ' \n ' : text, source }));
    writeJsonl(join(dir, `ds/documents/${source}.jsonl.gz`), docs);
    writeJsonl(join(dir, `ds/attributes/q/${source}.jsonl.gz`), docs.map((d, i) => ({ id: d.id, attributes: { q__t__score: [[0, 1, i / 15]] } })));
  });
  writeFileSync(join(dir, 'recipe.yaml'), 'streams:\n  - name: s\n    documents: [ds/documents/*.gz]\n    attributes: [q]\n    output: {path: out/s}\n    filter:\n      exclude: ["$.attributes[?(@.q__t__score[0][2] > 0.5)]"]\n');
});

const total = (out: string, re: RegExp): number => Number((re.exec(out)?.[1] ?? 'NaN').replaceAll(',', ''));

describe('assay index --tokenizer', () => {
  it('counts with gpt2 on 2 processes: the total `assay tokens` writes; previews are exact; a rerun counts nothing', () => {
    const idx = runCli(['index', 'ds', '--tokenizer', 'gpt2', '--processes', '2', '--no-search'], { cwd: dir });
    expect(idx.code, idx.stderr).toBe(0);
    expect(idx.stdout).toMatch(/^tokens: 45 documents counted with gpt2 \(EOS 50256\) → [\d,]+ tokens, 3 file\(s\) \(0 unchanged\)/m);
    const counted = total(idx.stdout, /→ ([\d,]+) tokens, 3 file/);
    const tok = runCli(['tokens', '--documents', 'ds/documents/*.gz', '--destination', 'tok', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256'], { cwd: dir });
    expect(tok.code, tok.stderr).toBe(0);
    expect(total(tok.stdout, /→ ([\d,]+) uint16 tokens/)).toBe(counted);

    const json = runCli(['preview', '-c', 'recipe.yaml', '--index', 'ds', '--json'], { cwd: dir });
    expect(json.code, json.stderr).toBe(0);
    const r = JSON.parse(json.stdout) as { total: { tokens: number }; tokens: { kind: string; tokenizer?: string } };
    expect(r.tokens).toMatchObject({ kind: 'exact', tokenizer: 'gpt2' });
    expect(r.total.tokens).toBe(counted);
    const table = runCli(['preview', '-c', 'recipe.yaml', '--index', 'ds'], { cwd: dir });
    expect(table.stdout).toMatch(/ {2}tokens kept [\d,]+ of [\d,]+ /);
    expect(table.stdout).toMatch(/; exact gpt2 token counts, EOS 50256 included \(as `assay tokens` writes them\)$/m);
    expect(table.stdout).not.toMatch(/est\. tokens/);

    const again = runCli(['index', 'ds', '--no-search'], { cwd: dir });
    expect(again.stdout).toMatch(/^tokens: 0 documents counted with gpt2 \(EOS 50256\) → 0 tokens, 0 file\(s\) \(3 unchanged\)/m);
  });

  it('a tokenizer path that does not exist fails at once (exit 2), naming it', () => {
    const r = runCli(['index', 'ds', '--tokenizer', 'models/missing/tokenizer.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`tokenizer: no tokenizer file at ${join(dir, 'models/missing/tokenizer.json')}`);
    expect(r.stdout).toBe('');
  });
});
