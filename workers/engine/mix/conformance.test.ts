// Dolma's mixer fixtures M1–M7, compared the way upstream's test_mixer.py compares them.
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, readJsonlFile,  writeJsonl, scratchDir } from '../testing.js';
import { loadMixerConfig, parseMixerConfig } from './config.js';
import { runMix } from './mixer.js';

const MIXER = join(CONFORMANCE, 'dolma/mixer');

/** Upstream normalisation: provenance must be `<file>:<line>` with increasing lines, then it is removed. */
function normalise(rows: Record<string, unknown>[], fileName: string): Record<string, unknown>[] {
  let last = 0;
  return rows.map((row) => {
    const meta = row.metadata as Record<string, unknown>;
    const [name, line] = String(meta.provenance).split(':');
    expect(name).toBe(fileName);
    expect(Number(line)).toBeGreaterThan(last);
    last = Number(line);
    const { provenance: _p, ...rest } = meta;
    const out = { ...row, metadata: rest };
    if (Object.keys(rest).length === 0) delete (out as Record<string, unknown>).metadata;
    return out;
  });
}

async function runFixture(config: string, produced: string, expected: string): Promise<void> {
  const dir = scratchDir();
  cpSync(MIXER, join(dir, 'mixer'), { recursive: true });
  const cfg = await loadMixerConfig(join(MIXER, 'configs', config));
  await runMix(cfg, { cwd: dir });
  const out = join(dir, produced);
  expect(existsSync(out)).toBe(true);
  const got = normalise(readJsonlFile(out), '000.json.gz');
  const want = readJsonlFile(join(MIXER, 'expected', expected));
  expect(got).toEqual(want);
}

describe('Dolma mixer conformance (M1–M5)', () => {
  it('M1 JSONPath include/exclude over merged pii + toxicity keeps 6 of 10', async () => {
    await runFixture('mixer.json', 'work/output/mixer/mixer-test-0000.json.gz', 'mixer.json.gz');
  });
  it('M2 span replacement with {} and deletion', async () => {
    await runFixture('email-spans.json', 'work/output/email-spans/email-spans-0000.json.gz', 'email-spans.json.gz');
  });
  it('M3 jq selectors with exclusive max_score', async () => {
    await runFixture('email-spans-jq.yaml', 'work/output/email-spans-jq/email-spans-jq-0000.json.gz', 'email-spans-jq.json.gz');
  });
  it('M4 filter on span score, missing-attribute exclude, discard_fields', async () => {
    await runFixture('filter-by-spans.json', 'work/output/filter-by-spans/filter-by-spans-test-0000.json.gz', 'filter-by-spans.json.gz');
  });
  it('M5 delete duplicate-paragraph spans', async () => {
    await runFixture('paragraph-spans.json', 'work/output/paragraph-spans/paragraph-spans-test-0000.json.gz', 'remove-paragraphs.json.gz');
  });
});

describe('Dolma mixer inline cases (M6, M7)', () => {
  const cases = JSON.parse(readFileSync(join(MIXER, 'cases/inline-cases.json'), 'utf8')) as Record<string, InlineCase>;

  it('M6 min_text_length applies after span replacement, in UTF-8 bytes after trim', async () => {
    const c = cases.min_text_length as InlineCase;
    const dir = scratchDir();
    writeJsonl(join(dir, 'documents/0.jsonl.gz'), c.documents);
    writeJsonl(
      join(dir, `attributes/${c.attribute_name}/0.jsonl.gz`),
      c.documents.map((d, i) => ({ id: d.id, attributes: { [c.attribute_name as string]: c.attributes?.[i] } })),
    );
    const out = join(dir, 'out');
    const text = JSON.stringify(c.config).replaceAll('<dir>', dir).replaceAll('<out>', out);
    await runMix(parseMixerConfig(text, 'inline.json'), { cwd: dir });
    const files = readdirSync(out).filter((f) => f.endsWith('.gz'));
    expect(files).toEqual(['test-0000.json.gz']);
    const rows = readJsonlFile(join(out, files[0] as string)).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    expect(rows.map((r) => r.id)).toEqual(c.expected_output_ids);
    expect(rows.map((r) => r.text)).toEqual(c.expected_output_texts_sorted_by_id);
  });

  it('M7 a jq error on a missing attribute fails the run, naming file and line, leaving no output', async () => {
    const c = cases.jq_missing_attribute_fails_the_run as InlineCase;
    const dir = scratchDir();
    writeJsonl(join(dir, 'documents/0000.jsonl.gz'), c.documents);
    const text = JSON.stringify(c.config).replaceAll('<dir>', dir);
    const run = runMix(parseMixerConfig(text, 'inline.json'), { cwd: dir });
    await expect(run).rejects.toMatchObject({ code: 'FILTER', line: 1 });
    await expect(run).rejects.toThrow(/0000\.jsonl\.gz:1: .*\.attributes\.b\.b != null/);
    const outDir = join(dir, 'documents/output');
    expect(existsSync(outDir) ? readdirSync(outDir).filter((f) => !f.startsWith('.')) : []).toEqual([]);
  });
});

interface InlineCase {
  documents: { id: string; text: string }[];
  attribute_name?: string;
  attributes?: unknown[];
  config: unknown;
  expected_output_ids?: string[];
  expected_output_texts_sorted_by_id?: string[];
}
