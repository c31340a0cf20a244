// The shipped presets run end to end: `assay tag -c X` then `assay mix -c X` on a small dataset.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonlFile, REPO_ROOT, tempDir, writeJsonl } from '../workers/engine/testing.js';
import { ensureBuilt, runCli } from '../workers/engine/cli/run-cli.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(() => ensureBuilt());

/** Varied English sentences (a fixed pseudo-random walk over a vocabulary), so Gopher's repetition rules pass. */
const VOCAB = (
  'river town people market morning evening bridge garden school teacher children family winter summer ' +
  'history museum library window kitchen station harbor island forest village mountain valley weather ' +
  'painter author doctor farmer student village council newspaper company engine journey letter story'
).split(' ');
let seed = 7;
const next = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const STOP = ['the', 'and', 'of', 'to', 'with', 'that', 'a', 'in'];
const sentence = (): string => {
  const w = Array.from({ length: 9 + next(8) }, (_, i) => (i % 3 === 1 ? STOP[next(STOP.length)] : VOCAB[next(VOCAB.length)]) as string);
  return `${w.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
};
const para = (n: number): string => Array.from({ length: n }, sentence).join(' ');
const docs = [
  { id: 'good', text: `${para(6)}\n${para(5)}\nWrite to jane.doe@example.net for details.\n${para(4)}`, metadata: { url: 'https://example.com/a' } },
  { id: 'short', text: 'Too short.', metadata: { url: 'https://example.com/b' } },
  { id: 'french', text: `${'Ceci est une phrase en français sur la rivière et la ville. '.repeat(30)}`, metadata: { url: 'https://example.fr/c' } },
  { id: 'repetitive', text: `${'buy now buy now buy now.\n'.repeat(60)}`, metadata: { url: 'https://example.com/d' } },
  { id: 'good-2', text: `${para(8)}\n${para(7)}\nJavascript must be enabled to view this page.\n${para(6)}`, metadata: { url: 'https://example.org/e' } },
];

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
