// `assay tokens` through the real CLI: Dolma's dotted flags, the config-file form, summaries, and errors before any work.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from '../testing.js';
import { NEOX_JSON } from '../tokenize/test-helpers.js';
import { ensureBuilt, runCli, withoutProgress } from './run-cli.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(() => {
  ensureBuilt();
  for (let f = 0; f < 2; f++) {
    writeJsonl(
      join(dir, `ds/documents/${f}.jsonl.gz`),
      Array.from({ length: 20 }, (_, i) => ({ id: `${f}-${i}`, text: i === 3 ? '   ' : `Document ${i} from file ${f}.`, source: f === 0 ? 'wiki' : 'web' })),
    );
  }
});

describe('assay tokens', () => {
  it('tokenizes with the built-in gpt2 and Dolma flag names, on 2 processes, printing tokens per source', () => {
    const r = runCli(
      ['tokens', '--documents', 'ds/documents/*.jsonl.gz', '--destination', 'out', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '--processes', '2', '--max_size', '100', '--seed', '7'],
      { cwd: dir },
    );
    expect(withoutProgress(r.stderr)).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tokenized 38 docs .* from 2 file\(s\) → [\d,]+ uint16 tokens in \d+ file pair\(s\) under .*out .* with 2 process\(es\)/);
    expect(r.stdout).toMatch(/skipped 2 document\(s\) empty after stripping/);
    expect(r.stdout).toMatch(/^\s+web\s+[\d,]+ raw\s+[\d,]+ written\s+19 docs$/m);
    expect(r.stdout).toMatch(/^\s+wiki\s+[\d,]+ raw/m);
    const names = readdirSync(join(dir, 'out'));
    expect(names).toContain('part-0-00000.npy');
    expect(names).toContain('part-1-00000.csv.gz');
    const summary = JSON.parse(readFileSync(join(dir, 'out/.assay/tokens-summary.json'), 'utf8')) as { perSource: Record<string, { docs: number }> };
    expect(summary.perSource.web?.docs).toBe(19);
  });

  it("takes Dolma's nested config keys with -c, in either argument order, and flags override them", () => {
    writeFileSync(
      join(dir, 'tokens.yaml'),
      `documents: [ds/documents/*.jsonl.gz]\ndestination: cfg-out\ntokenizer:\n  name_or_path: ${NEOX_JSON}\n  eos_token_id: 50279\n  pad_token_id: 1\n  segment_before_tokenization: true\ndtype: uint16\nmax_size: 1000\nfields:\n  text_field_name: text\n`,
    );
    const a = runCli(['-c', 'tokens.yaml', 'tokens', '-q'], { cwd: dir });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe('');
    expect(readdirSync(join(dir, 'cfg-out')).filter((n) => n.endsWith('.npy'))).toEqual(['part-0-00000.npy']);
    const b = runCli(['tokens', '-c', 'tokens.yaml', '--destination', 'cfg-out2', '-q'], { cwd: dir });
    expect(b.code, b.stderr).toBe(0);
    expect(readFileSync(join(dir, 'cfg-out2/part-0-00000.npy'))).toEqual(readFileSync(join(dir, 'cfg-out/part-0-00000.npy')));
  });

  it("takes Dolma's --files_per_process and --sample_ring_prop as flags too", () => {
    const base = ['tokens', '--documents', 'ds/documents/*.jsonl.gz', '--tokenizer.name_or_path', 'gpt2', '--tokenizer.eos_token_id', '50256', '-q'];
    const one = runCli([...base, '--destination', 'fpp', '--files_per_process', '1'], { cwd: dir });
    expect(one.code, one.stderr).toBe(0);
    // One input file per group: two groups, each its own part prefix.
    expect(readdirSync(join(dir, 'fpp')).filter((n) => n.endsWith('.npy')).sort()).toEqual(['part-0-00000.npy', 'part-1-00000.npy']);
    const prop = runCli([...base, '--destination', 'prop', '--sample_ring_prop'], { cwd: dir });
    expect(prop.code, prop.stderr).toBe(0);
    const size = (d: string): number => readdirSync(join(dir, d)).filter((n) => n.endsWith('.npy')).reduce((a, n) => a + readFileSync(join(dir, d, n)).length, 0);
    expect(size('prop')).toBe(size('fpp'));
    // Read in proportion to the files' sizes rather than in turn: the same tokens in another order.
    expect(runCli([...base, '--destination', 'plain'], { cwd: dir }).code).toBe(0);
    expect(size('plain')).toBe(size('prop'));
    expect(readFileSync(join(dir, 'prop/part-0-00000.npy')).equals(readFileSync(join(dir, 'plain/part-0-00000.npy')))).toBe(false);
    expect(runCli([...base, '--destination', 'never2', '--files_per_process', '0'], { cwd: dir }).stderr).toMatch(/--files_per_process must be an integer ≥ 1, got '0'/);
  });

  it('fails before any work: dtype mismatch, missing tokenizer, unknown config key with its line, missing options', () => {
    const base = ['tokens', '--documents', 'ds/documents/*.jsonl.gz', '--destination', 'never', '--tokenizer.eos_token_id', '50256'];
    const dtype = runCli([...base, '--tokenizer.name_or_path', 'gpt2', '--dtype', 'uint32'], { cwd: dir });
    expect(dtype.code).toBe(2);
    expect(dtype.stderr).toMatch(/dtype: uint32 does not match the tokenizer: 50,257 ids need uint16/);
    const missing = runCli([...base, '--tokenizer.name_or_path', 'tok/missing.json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/tokenizer\.name_or_path: no tokenizer file at .*tok\/missing\.json/);
    expect(existsSync(join(dir, 'never'))).toBe(false);
    writeFileSync(join(dir, 'bad.yaml'), 'documents: [x]\ndestination: y\ntokenizer:\n  name_or_path: gpt2\n  eos_token: 1\n');
    const bad = runCli(['tokens', '-c', 'bad.yaml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.yaml:5: tokenizer: unknown key 'eos_token'/);
    const usage = runCli(['tokens', '--documents', 'x'], { cwd: dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/tokens needs --destination DIR/);
    const positional = runCli([...base, '--tokenizer.name_or_path', 'gpt2', '--tokenizer.segment_before_tokenization', 'true'], { cwd: dir });
    expect(positional.stderr).toMatch(/unexpected argument 'true'/);
  });
});
