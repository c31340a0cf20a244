// Dolma's mixer fixtures through the preview: the kept set (and text) equal upstream's expected outputs.
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE, readJsonlFile, scratchDir, writeJsonl } from '../testing.js';
import { buildIndex, PreviewEngine } from './index.js';

const MIXER = join(CONFORMANCE, 'dolma/mixer');

/** The fixtures' recipes, unmodified: they read `mixer/documents/…`, relative to the folder above the dataset, where Dolma runs them. */
const recipeOf = (config: string): string => readFileSync(join(MIXER, 'configs', config), 'utf8');

describe('Dolma mixer fixtures through the preview (M1–M7)', () => {
  const cases: [string, string, string][] = [
    ['M1 include/exclude over merged pii + toxicity', 'mixer.json', 'mixer.json.gz'],
    ['M2 span replacement with {} and deletion', 'email-spans.json', 'email-spans.json.gz'],
    ['M3 jq selectors with exclusive max_score', 'email-spans-jq.yaml', 'email-spans-jq.json.gz'],
    ['M4 filter on span score, missing-attribute exclude', 'filter-by-spans.json', 'filter-by-spans.json.gz'],
    ['M5 delete duplicate-paragraph spans', 'paragraph-spans.json', 'remove-paragraphs.json.gz'],
  ];
  it.each(cases)('%s', async (_name, config, expected) => {
    const parent = scratchDir();
    const root = join(parent, 'mixer');
    cpSync(MIXER, root, { recursive: true });
    await buildIndex(root);
    // Resolved from the parent folder, as `assay mix -c configs/…` run there resolves them.
    const engine = PreviewEngine.open(root, { baseDir: parent });
    try {
      const text = recipeOf(config);
      const want = readJsonlFile(join(MIXER, 'expected', expected));
      const r = engine.preview(text, { ids: true });
      expect([...(r.keptIds ?? [])].sort()).toEqual(want.map((d) => String(d.id)).sort());
      expect(r.total.kept.docs).toBe(want.length);
      for (const d of want) expect(engine.explain(text, String(d.id)).output).toBe(d.text);
    } finally {
      engine.close();
    }
  });

  const inline = JSON.parse(readFileSync(join(MIXER, 'cases/inline-cases.json'), 'utf8')) as Record<string, {
    documents: { id: string; text: string }[];
    attribute_name?: string;
    attributes?: unknown[];
    config: unknown;
    expected_output_ids?: string[];
    expected_output_texts_sorted_by_id?: string[];
  }>;

  it('M6 min_text_length applies after span replacement, in UTF-8 bytes after trim', async () => {
    const c = inline.min_text_length!;
    const root = scratchDir();
    writeJsonl(join(root, 'documents/0.jsonl.gz'), c.documents);
    writeJsonl(join(root, `attributes/${c.attribute_name}/0.jsonl.gz`), c.documents.map((d, i) => ({ id: d.id, attributes: { [c.attribute_name as string]: c.attributes?.[i] } })));
    await buildIndex(root);
    const engine = PreviewEngine.open(root);
    try {
      const text = JSON.stringify(c.config).replaceAll('<dir>', root).replaceAll('<out>', join(root, 'out'));
      const r = engine.preview(text, { ids: true });
      expect([...(r.keptIds ?? [])].sort()).toEqual(c.expected_output_ids);
      expect(c.expected_output_ids?.map((id) => engine.explain(text, id).output)).toEqual(c.expected_output_texts_sorted_by_id);
      expect(r.rules.find((x) => x.kind === 'min_text_length')?.sequential.docs).toBe(c.documents.length - (c.expected_output_ids?.length ?? 0));
    } finally {
      engine.close();
    }
  });

  it('M7 a jq error on a missing attribute fails the preview as it fails the run, naming file and line', async () => {
    const c = inline.jq_missing_attribute_fails_the_run!;
    const root = scratchDir();
    writeJsonl(join(root, 'documents/0000.jsonl.gz'), c.documents);
    await buildIndex(root);
    const engine = PreviewEngine.open(root);
    try {
      const text = JSON.stringify(c.config).replaceAll('<dir>', root);
      expect(() => engine.preview(text)).toThrow(/0000\.jsonl\.gz:1: .*\.attributes\.b\.b != null/);
      try {
        engine.preview(text);
      } catch (e) {
        expect(e).toMatchObject({ code: 'FILTER', line: 1 });
      }
    } finally {
      engine.close();
    }
  });
});
