// `minhashCommand`: YAML config, printed summary, --quiet, and config errors located by line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { document, Rng } from '../dedupe/minhash/test-corpus.js';
import { readJsonlFile,  writeJsonl, scratchDir } from '../testing.js';
import type { ParsedArgs } from './args.js';
import { minhashCommand } from './minhash.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const args = (config: string, ...flags: string[]): ParsedArgs => ({
  command: 'minhash',
  options: new Map<string, string | true | string[]>([['config', config], ...flags.map((f) => [f, true] as [string, true])]),
  positionals: [],
});

function setup(yaml: (docs: string) => string): { dir: string; config: string } {
  const t = { dir: scratchDir('assay-minhash-cli-') };
  const docs = join(t.dir, 'documents');
  mkdirSync(docs);
  const rng = new Rng(3);
  const a = document(rng, 50).join(' ');
  writeJsonl(join(docs, 'x.jsonl'), [{ id: 'a', text: a }, { id: 'b', text: document(rng, 50).join(' ') }, { id: 'c', text: a }]);
  const config = join(t.dir, 'minhash.yaml');
  writeFileSync(config, yaml(docs));
  return { dir: t.dir, config };
}

describe('assay minhash -c', () => {
  it('runs a YAML config (FineWeb settings) and prints docs, clusters, duplicates and time', async () => {
    const { dir, config } = setup((d) => `documents:\n  - ${d}/*.jsonl\nname: fw\nhash_fc: sha1\nprecision: 64\nprofile: fineweb-2024\n`);
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((out += String(c)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await minhashCommand(args(config), new AbortController().signal)).toBe(0);
    expect(out).toMatch(/minhash over 1 file\(s\), 3 docs, .* in \d+\.\d s/);
    expect(out).toMatch(/1 cluster\(s\) of 2 docs: 1 duplicate\(s\) to drop/);
    const rows = readJsonlFile(join(dir, 'attributes/fw/x.jsonl'));
    expect((rows[2]?.attributes as Record<string, unknown>)['fw__minhash_duplicate_of']).toBe('a');
  });

  it('prints nothing with --quiet', async () => {
    const { config } = setup((d) => `documents: ${d}/*.jsonl\nname: q\n`);
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await minhashCommand(args(config, 'quiet'), new AbortController().signal)).toBe(0);
    expect(spy).not.toHaveBeenCalled();
  });

  it('locates an invalid key by line', async () => {
    const { config } = setup((d) => `documents: ${d}/*.jsonl\nname: q\nprecision: 16\nbuckets: 3\n`);
    await expect(minhashCommand(args(config), new AbortController().signal)).rejects.toThrow(/minhash.yaml:3: precision: [\s\S]*minhash.yaml:4: \(root\): unknown key 'buckets'/);
  });

  it('requires -c', async () => {
    await expect(minhashCommand({ command: 'minhash', options: new Map(), positionals: [] }, new AbortController().signal)).rejects.toThrow(/-c CONFIG/);
  });
});
