// The README's FineWeb chain from the folder holding `dataset/`: tag → index → preview → mix agree on what is kept.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonlFile, REPO_ROOT, scratchDir, writeJsonl } from '../testing.js';
import { ensureBuilt, runCli } from './run-cli.js';
import { finewebDocs } from './test-corpus.js';

beforeAll(() => ensureBuilt());

/** Kept ids of `assay mix` (every shard under output/fineweb). */
function mixedIds(cwd: string): string[] {
  const out = join(cwd, 'output/fineweb');
  return readdirSync(out)
    .filter((f) => f.endsWith('.gz'))
    .flatMap((f) => readJsonlFile(join(out, f)).map((d) => String(d.id)))
    .sort();
}

describe('the FineWeb chain, run from the parent folder of dataset/', () => {
  it('tag, index, preview and mix resolve `dataset/documents/*.jsonl.gz` the same way: preview keeps exactly what mix writes', { timeout: 120_000 }, () => {
    const cwd = scratchDir();
    writeJsonl(join(cwd, 'dataset/documents/part-0.jsonl.gz'), finewebDocs(20));
    writeJsonl(join(cwd, 'dataset/documents/part-1.jsonl.gz'), finewebDocs(30).slice(27).map((d) => ({ ...d, id: `b-${d.id}` })));
    mkdirSync(join(cwd, 'configs'));
    copyFileSync(join(REPO_ROOT, 'configs/fineweb.yaml'), join(cwd, 'configs/fineweb.yaml'));
    const run = (args: string[]): string => {
      const r = runCli(args, { cwd });
      expect(r.code, `assay ${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout;
    };
    run(['tag', '-c', 'configs/fineweb.yaml', '--quiet']);
    run(['index', 'dataset', '--quiet']);
    const preview = JSON.parse(run(['preview', '-c', 'configs/fineweb.yaml', '--index', 'dataset', '--json', '--ids'])) as { total: { docs: number; kept: { docs: number } }; kept_ids: string[] };
    expect(preview.total.docs).toBe(37);
    run(['mix', '-c', 'configs/fineweb.yaml', '--quiet']);
    const mixed = mixedIds(cwd);
    expect(mixed.length).toBeGreaterThan(0);
    expect(mixed.length).toBeLessThan(37);
    expect([...preview.kept_ids].sort()).toEqual(mixed);
    // The text table reads the same and says its token figures are estimates.
    const text = run(['preview', '-c', 'configs/fineweb.yaml', '--index', 'dataset']);
    expect(text).toMatch(/est\. tokens kept/);
    expect(text).toMatch(/estimated tokens \(⌈UTF-8 bytes \/ 4⌉\)/);
  });
});
