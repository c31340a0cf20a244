import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRecipe } from './load.js';

const CONFORMANCE = resolve(fileURLToPath(import.meta.url), '../../../../shared/conformance');
const ctx = { env: { ALPHA: '0.25', HOME: '/home/me' }, cpuCount: 8 };
const minimal = (extra = ''): string => `streams:
  - name: s
    documents: [docs/*.gz]
    output: {path: out${extra}}
    filter: {include: ["$.id"]}
`;

describe('parseRecipe', () => {
  it('loads every Dolma conformance mixer config (JSON and YAML) unchanged', () => {
    const dir = join(CONFORMANCE, 'dolma/mixer/configs');
    for (const f of readdirSync(dir)) {
      const r = parseRecipe(readFileSync(join(dir, f), 'utf8'), ctx);
      expect(r.ok, `${f}: ${JSON.stringify(r.ok ? '' : r.issues)}`).toBe(true);
    }
  });

  it('fills Dolma defaults', () => {
    const r = parseRecipe(minimal(), ctx);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.config.processes).toBe(1);
    expect(r.config.shuffle).toBe(true);
    const s = r.config.streams[0]!;
    expect(s.output.max_size_in_bytes).toBe(2 * 2 ** 30);
    expect(s.output.min_text_length).toBe(0);
    expect(s.attributes).toEqual([]);
    expect(s.filter?.syntax).toBe('jsonpath');
  });

  it('accepts every key of Dolma mixer configs', () => {
    const text = `streams:
  - name: s
    documents: [a/documents/*.gz]
    attributes: [x]
    output: {path: out, max_size_in_bytes: 100, discard_fields: [metadata], min_text_length: 3}
    filter: {include: [".id"], exclude: [], syntax: jq}
    span_replacement: [{span: ".attributes.x", min_score: 0.5, max_score: 0.9, replacement: "", syntax: jq}]
    compression: {input: zst, output: gz}
work_dir: {input: /tmp/i, output: /tmp/o}
processes: 2
shuffle: false
dryrun: false
`;
    expect(parseRecipe(text, ctx).ok).toBe(true);
  });

  it('names unknown keys with their line', () => {
    const r = parseRecipe(minimal().replace('output: {path: out}', 'output: {path: out}\n    outptu: {}'), ctx);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]).toMatchObject({ field: 'streams[0]', message: "unknown key 'outptu'", line: 5 });
  });

  it('reports Dolma validation rules with the field', () => {
    const noStreams = parseRecipe('streams: []\n', ctx);
    expect(!noStreams.ok && noStreams.issues[0]?.message).toBe('No streams to mix');
    const noFilter = parseRecipe(minimal().replace('    filter: {include: ["$.id"]}\n', ''), ctx);
    expect(!noFilter.ok && noFilter.issues[0]?.message).toMatch(/Either `filter` or `span_replacement`/);
    const noScore = parseRecipe(minimal().replace('filter: {include: ["$.id"]}', 'span_replacement: [{span: "$.a"}]'), ctx);
    expect(!noScore.ok && noScore.issues[0]).toMatchObject({ field: 'streams[0].span_replacement[0]', message: expect.stringMatching(/min_score or max_score/) });
    const negative = parseRecipe(minimal(', min_text_length: -1'), ctx);
    expect(!negative.ok && negative.issues[0]?.field).toBe('streams[0].output.min_text_length');
    const badSyntax = parseRecipe(minimal().replace('{include: ["$.id"]}', '{include: ["$.id"], syntax: xpath}'), ctx);
    expect(!badSyntax.ok && badSyntax.issues[0]?.field).toBe('streams[0].filter.syntax');
  });

  it('interpolates ${oc.env:…} (with defaults) and ${d.processes:n} like OmegaConf', () => {
    const text = `streams:
  - name: s
    documents: ["\${oc.env:HOME}/docs/*.gz"]
    output: {path: "\${oc.env:OUT_DIR,/tmp/default-out}"}
    filter: {include: [".x * \${oc.env:ALPHA} > 1"], syntax: jq}
processes: \${d.processes:2}
`;
    const r = parseRecipe(text, ctx);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const s = r.config.streams[0]!;
    expect(s.documents).toEqual(['/home/me/docs/*.gz']);
    expect(s.output.path).toBe('/tmp/default-out');
    expect(s.filter?.include).toEqual(['.x * 0.25 > 1']);
    expect(r.config.processes).toBe(6);
  });

  it('a missing environment variable is an error naming the field and line', () => {
    const r = parseRecipe(minimal().replace('path: out', 'path: "${oc.env:NOPE_NOT_SET}"'), ctx);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ field: 'streams[0].output.path', line: 4, message: expect.stringMatching(/NOPE_NOT_SET/) });
  });

  it('rejects invalid YAML with a line number, and duplicate keys', () => {
    const r = parseRecipe('streams:\n  - name: a\n   documents: [x]\n', ctx);
    expect(!r.ok && r.issues[0]?.line).toBe(3);
    const dup = parseRecipe('processes: 1\nprocesses: 2\n' + minimal(), ctx);
    expect(dup.ok).toBe(false);
  });
});
