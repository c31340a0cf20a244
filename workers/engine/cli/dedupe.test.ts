// `dedupeCommand`: config files (JSON / YAML), located config errors, D4 through the CLI, the printed summary.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFixtureConfig, scratchWithFixture } from '../dedupe/test-helpers.js';
import { readJsonlFile } from '../testing.js';
import type { ParsedArgs } from './args.js';
import { dedupeCommand } from './dedupe.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const args = (config: string, ...flags: string[]): ParsedArgs => ({
  command: 'dedupe',
  options: new Map<string, string | true | string[]>([['config', config], ...flags.map((f) => [f, true] as [string, true])]),
  positionals: [],
});

/** The fixture config with absolute paths, since the command runs in the test's cwd. */
function absoluteConfig(dir: string, name: string): Record<string, unknown> {
  const c = readFixtureConfig(name) as { documents: string[]; bloom_filter: { file: string } };
  return { ...c, documents: c.documents.map((d) => join(dir, d)), bloom_filter: { ...c.bloom_filter, file: join(dir, c.bloom_filter.file) } };
}

function capture(): { out: () => string } {
  let text = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  });
  return { out: () => text };
}

describe('assay dedupe -c', () => {
  it('runs a JSON config and prints documents, duplicates and bloom filter stats', async () => {
    const t = scratchWithFixture();
    const path = join(t.dir, 'url.json');
    writeFileSync(path, JSON.stringify(absoluteConfig(t.dir, 'dedupe-by-url.json')));
    const cap = capture();
    expect(await dedupeCommand(args(path), new AbortController().signal)).toBe(0);
    expect(cap.out()).toMatch(/deduped 1 file\(s\), 10 docs/);
    expect(cap.out()).toMatch(/1 doc\(s\) with duplicate spans/);
    expect(cap.out()).toMatch(/k=\d+, m=[\d,]+ bits .* fill [\d.]+%, false-positive rate now ≈/);
    expect(readJsonlFile(join(t.dir, 'deduper/attributes/dedupe_by_url/000.json.gz'))).toHaveLength(10);
  });

  it('reads YAML, and --quiet prints nothing', async () => {
    const t = scratchWithFixture();
    const c = absoluteConfig(t.dir, 'dedupe-paragraphs.json') as { documents: string[]; bloom_filter: { file: string } };
    const path = join(t.dir, 'para.yaml');
    writeFileSync(path, `documents: [${JSON.stringify(c.documents[0])}]\ndedupe:\n  name: yaml_run\n  paragraphs: {attribute_name: dup}\nbloom_filter:\n  file: ${JSON.stringify(c.bloom_filter.file)}\n  read_only: false\n  estimated_doc_count: 1000\n  desired_false_positive_rate: 0.001\n`);
    const cap = capture();
    expect(await dedupeCommand(args(path, 'quiet'), new AbortController().signal)).toBe(0);
    expect(cap.out()).toBe('');
    expect(existsSync(join(t.dir, 'deduper/attributes/yaml_run/000.json.gz'))).toBe(true);
  });

  it('D4: the filepath-bad config is a configuration error', async () => {
    const t = scratchWithFixture();
    const path = join(t.dir, 'bad.json');
    writeFileSync(path, JSON.stringify(absoluteConfig(t.dir, 'filepath-bad.json')));
    await expect(dedupeCommand(args(path), new AbortController().signal)).rejects.toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/no "documents" path component/) });
  });

  it('reports unknown keys and missing modes with file and line', async () => {
    const t = scratchWithFixture();
    const path = join(t.dir, 'typo.yaml');
    writeFileSync(path, 'documents: [x/documents/a.gz]\ndedupe:\n  name: n\n  paragraph: {attribute_name: a}\nbloom_filter: {file: b.bin, read_only: false, estimated_doc_count: 10, desired_false_positive_rate: 0.01}\n');
    const p = dedupeCommand(args(path), new AbortController().signal);
    await expect(p).rejects.toMatchObject({ code: 'CONFIG', file: path });
    await expect(p).rejects.toThrow(new RegExp(`${path}:4: dedupe.paragraph: unknown key|${path}:\\d+: dedupe: unknown key 'paragraph'`));
    await expect(p).rejects.toThrow(/exactly one of dedupe.documents and dedupe.paragraphs/);
  });
});
