// Every config name that becomes a path segment is refused at schema level when it is not one safe segment, with its field and line.
import { describe, expect, it } from 'vitest';
import { minhashConfig } from './dedupe/minhash-schema.js';
import { dedupeConfig } from './dedupe/schema.js';
import { parseConfigText, parseRecipe } from './recipe/load.js';
import { segmentProblem } from './segment.js';
import { tagConfig } from './tag/schema.js';

const ctx = { env: {}, cpuCount: 1 };
const BAD = ['../../../outside/x', '..', '.', 'a/b', 'a\\b', '/abs', 'x\u0000y', ''];

const recipe = (name: string, attrs: string, preset = ''): string =>
  `streams:\n  - name: ${JSON.stringify(name)}\n    documents: [documents/*.gz]\n    attributes: ${attrs}\n    output: {path: out}\n    filter: {exclude: ["$.x"]}\n${preset}`;

describe('safe path segments', () => {
  it('accepts ordinary names and refuses every way out of one folder', () => {
    for (const ok of ['s', 'pii_v1', 'dedupe-paragraphs.2', 'Ünïcode name', '...x']) expect(segmentProblem(ok), ok).toBeNull();
    for (const bad of BAD) expect(segmentProblem(bad), JSON.stringify(bad)).not.toBeNull();
  });

  it('mix: stream name and attribute set names, located at their line', () => {
    for (const bad of BAD) {
      const r = parseRecipe(recipe(bad, '[ok]'), ctx);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.issues[0]).toMatchObject({ field: 'streams[0].name', line: 2 });
      const a = parseRecipe(recipe('s', JSON.stringify(['ok', bad])), ctx);
      expect(a.ok, bad).toBe(false);
      if (!a.ok) expect(a.issues[0]).toMatchObject({ field: 'streams[0].attributes[1]', line: 4 });
    }
    expect(parseRecipe(recipe('s', '[ok]'), ctx).ok).toBe(true);
  });

  it('tag: experiment in a tag config and in a recipe preset', () => {
    const r = parseConfigText('documents: [documents/*.gz]\ntaggers: [char_length_v1]\nexperiment: ../../../outside/x\n', tagConfig, ctx);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ field: 'experiment', line: 3 });
    const p = parseRecipe(recipe('s', '[ok]', 'assay:\n  tag:\n    - experiment: a/b\n      taggers: [char_length_v1]\n'), ctx);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.issues[0]).toMatchObject({ field: 'assay.tag[0].experiment', line: 9 });
  });

  it('dedupe: name, attribute_name and document_dir', () => {
    const cfg = (dedupe: string): string => `documents: [documents/*.gz]\ndedupe:\n${dedupe}bloom_filter: {file: b.bin, read_only: false, estimated_doc_count: 10, desired_false_positive_rate: 0.01}\n`;
    const cases: [string, string][] = [
      ['  name: ../x\n  documents: {attribute_name: a, key: $.text}\n', 'dedupe.name'],
      ['  documents: {attribute_name: ../../../outside/x, key: $.text}\n', 'dedupe.documents.attribute_name'],
      ['  paragraphs: {attribute_name: a/b}\n', 'dedupe.paragraphs.attribute_name'],
      ['  document_dir: ".."\n  paragraphs: {attribute_name: a}\n', 'dedupe.document_dir'],
    ];
    for (const [body, field] of cases) {
      const r = parseConfigText(cfg(body), dedupeConfig, ctx);
      expect(r.ok, field).toBe(false);
      if (!r.ok) expect(r.issues.map((i) => i.field), field).toContain(field);
    }
    expect(parseConfigText(cfg('  paragraphs: {attribute_name: a}\n'), dedupeConfig, ctx).ok).toBe(true);
  });

  it('minhash: name and document_dir (".." passed the old no-slash rule)', () => {
    for (const [body, field] of [
      ['name: ".."\n', 'name'],
      ['name: m\ndocument_dir: ".."\n', 'document_dir'],
    ] as const) {
      const r = parseConfigText(`documents: [documents/*.gz]\n${body}`, minhashConfig, ctx);
      expect(r.ok, field).toBe(false);
      if (!r.ok) expect(r.issues[0]?.field).toBe(field);
    }
  });
});
