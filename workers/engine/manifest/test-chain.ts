// Test helpers for run manifests: `main(argv)` with its output captured, and a small tag → minhash → mix → tokens chain.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from '../cli.js';
import { finewebDocs } from '../cli/test-corpus.js';
import { writeJsonl } from '../testing.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the `assay` CLI in this process (as `bin/assay.js` does), capturing what it writes. */
export async function cli(...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += String(c)), true));
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

export const sha256Of = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** 50 documents in two files, from two sources, with one near-duplicate so MinHash drops something. */
export function writeCorpus(dir: string): string[] {
  const docs = finewebDocs(43).map((d, i) => ({ ...d, source: i % 3 === 0 ? 'wiki' : 'web' }));
  const good = docs.find((d) => d.id === 'good')!;
  docs[49] = { ...good, id: 'good-copy', text: `${good.text} Thanks.` };
  const files = [join(dir, 'dataset/documents/part-0.jsonl.gz'), join(dir, 'dataset/documents/part-1.jsonl.gz')];
  writeJsonl(files[0]!, docs.slice(0, 25));
  writeJsonl(files[1]!, docs.slice(25));
  return files;
}

/** The recipe: drop MinHash duplicates and documents under `minChars` characters. */
export function writeRecipe(dir: string, name: string, minChars: number, out = 'output'): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `streams:
  - name: chain
    documents: [${dir}/dataset/documents/*.jsonl.gz]
    attributes: [char_length_v1, mh]
    output: {path: ${join(dir, out)}, max_size_in_bytes: 100000}
    filter:
      exclude:
        - "$.attributes[?(@.mh__minhash_duplicate && @.mh__minhash_duplicate[0] && @.mh__minhash_duplicate[0][2] == 1)]"
        - "$.attributes[?(@.char_length_v1__char_length_v1__length && @.char_length_v1__char_length_v1__length[0] && @.char_length_v1__char_length_v1__length[0][2] < ${minChars})]"
`,
  );
  return path;
}

/** tag → minhash → mix → tokens over `dir/dataset`, every verb through the CLI; fails loudly on a non-zero exit. */
export async function runChain(dir: string, opts: { seed?: number; minChars?: number; out?: string; tokens?: string } = {}): Promise<void> {
  const out = opts.out ?? 'output';
  const step = async (...argv: string[]): Promise<void> => {
    const r = await cli(...argv);
    if (r.code !== 0) throw new Error(`assay ${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
  };
  await step('tag', '--documents', `${dir}/dataset/documents/*.jsonl.gz`, '--taggers', 'char_length_v1', '--quiet');
  const minhash = join(dir, 'minhash.yaml');
  writeFileSync(minhash, `documents: [${dir}/dataset/documents/*.jsonl.gz]\nname: mh\nseed: ${opts.seed ?? 1}\n`);
  await step('minhash', '-c', minhash, '--quiet');
  await step('mix', '-c', writeRecipe(dir, `recipe-${out}`, opts.minChars ?? 100, out), '--quiet');
  await step(
    'tokens', '--documents', `${dir}/${out}/*.gz`, '--destination', join(dir, opts.tokens ?? 'tokens'), '--tokenizer.name_or_path', 'gpt2',
    '--tokenizer.eos_token_id', '50256', '--dtype', 'uint16', '--seed', String(opts.seed ?? 1), '--quiet',
  );
}
