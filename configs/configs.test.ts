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
