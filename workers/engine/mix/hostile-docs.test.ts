// The mixer on documents that break naive JS: keys named like Object.prototype members, and nesting thousands of levels deep.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { buildIndex, PreviewEngine } from '../index/index.js';
import { readJsonlFile, scratchDir, writeJsonl } from '../testing.js';
import { parseMixerConfig } from './config.js';
import { disposeJq } from './filters/jq/index.js';
import { stringifyJson, stringifySorted } from './json.js';
import { runMix } from './mixer.js';

afterAll(() => disposeJq());

const recipe = (syntax: 'jsonpath' | 'jq', exclude: string, span?: string): string => `streams:
  - name: s
    documents: [documents/*.gz]
    attributes: [p]
    output: {path: out, max_size_in_bytes: 100000000}
    filter:
      syntax: ${syntax}
      exclude: [${JSON.stringify(exclude)}]
${span ? `    span_replacement: [{span: ${JSON.stringify(span)}, min_score: 0.05, replacement: "#", syntax: ${syntax}}]\n` : ''}`;

/** Mix, then preview the same recipe on the index: the kept ids must agree. */
async function mixAndPreview(root: string, text: string): Promise<{ out: Record<string, unknown>[]; previewKept: string[] }> {
  await runMix(parseMixerConfig(text, 'r.yaml'), { cwd: root });
  const out = readdirSync(join(root, 'out')).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(root, 'out', f)));
  await buildIndex(root);
  const e = PreviewEngine.open(root);
  try {
    return { out, previewKept: [...(e.preview(text, { ids: true }).keptIds ?? [])].sort() };
  } finally {
    e.close();
  }
}

describe('keys named __proto__, constructor and prototype', () => {
  const PROTO_ATTRS = (score: number): string => `{"__proto__": [[0, 5, ${score}]], "constructor": [[0, 1, 1]], "prototype": 2, "toString": 3}`;

  function dataset(): string {
    const root = scratchDir();
    writeJsonl(join(root, 'documents/a.jsonl.gz'), [
      '{"id": "d0", "text": "hello world", "metadata": {"__proto__": {"x": 1}, "constructor": "c"}}',
      '{"id": "d1", "text": "hello again", "metadata": {"__proto__": {"x": 2}}, "attributes": {"__proto__": [[0, 1, 0.2]], "own": 1}}',
    ]);
    writeJsonl(join(root, 'attributes/p/a.jsonl.gz'), [`{"id": "d0", "attributes": ${PROTO_ATTRS(0.9)}}`, `{"id": "d1", "attributes": ${PROTO_ATTRS(0.1)}}`]);
    return root;
  }

  it.each([
    ['jsonpath', '$.attributes[?(@.__proto__[0][2] > 0.5)]', '$.attributes.__proto__'],
    ['jq', '.attributes.__proto__[0][2] > 0.5', '.attributes.__proto__'],
  ] as const)('survive merging, are seen by %s filters and span replacement, and reach the output', async (syntax, exclude, span) => {
    const root = dataset();
    const { out, previewKept } = await mixAndPreview(root, recipe(syntax, exclude, span));
    expect(out.map((d) => d.id)).toEqual(['d1']);
    expect(previewKept).toEqual(['d1']);
    const line = out[0]!;
    const attrs = line.attributes as Record<string, unknown>;
    expect(Object.hasOwn(attrs, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(attrs, '__proto__')?.value).toEqual([[0, 5, 0.1]]);
    expect(attrs).toMatchObject({ constructor: [[0, 1, 1]], prototype: 2, toString: 3, own: 1 });
    expect(line.text).toBe('# again');
    const meta = line.metadata as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(meta, '__proto__')?.value).toEqual({ x: 2 });
  });
  it('reach the exact evaluator of the preview (a ~= rule), as in the mixer', async () => {
    const root = scratchDir();
    writeJsonl(join(root, 'documents/a.jsonl.gz'), ['{"id": "d0", "text": "x"}', '{"id": "d1", "text": "y", "attributes": {"__proto__": "bad"}}', '{"id": "d2", "text": "z"}']);
    writeJsonl(join(root, 'attributes/p/a.jsonl.gz'), ['{"id": "d0", "attributes": {"__proto__": "bad"}}', '{"id": "d1", "attributes": {"own": 1}}', '{"id": "d2", "attributes": {"__proto__": "good"}}']);
    const { out, previewKept } = await mixAndPreview(root, recipe('jsonpath', "$.attributes[?(@.__proto__ ~= '^bad')]"));
    expect(out.map((d) => d.id)).toEqual(['d2']);
    expect(previewKept).toEqual(['d2']);
  });
});

describe('documents nested deeper than Dolma reads (serde_json: 128 levels)', () => {
  /** A document whose line nests `levels` arrays/objects deep, counting its own object. */
  const nested = (id: string, levels: number): string => {
    let v = '"leaf"';
    for (let i = 0; i < levels - 1; i++) v = i % 2 ? `{"k":${v}}` : `[${v}]`;
    return `{"id":"${id}","text":"text ${id}","metadata":${v}}`;
  };

  function dataset(): string {
    const root = scratchDir();
    const lines = [nested('d0', 5), nested('d1', 6_000), nested('d2', 127), nested('d3', 128), nested('d4', 100_000)];
    writeJsonl(join(root, 'documents/a.jsonl.gz'), lines);
    writeJsonl(join(root, 'attributes/p/a.jsonl.gz'), lines.map((_, i) => ({ id: `d${i}`, attributes: { q: [[0, 1, 0.1]] } })));
    return root;
  }

  it.each([
    ['jsonpath', '$.attributes[?(@.q[0][2] > 0.5)]'],
    ['jq', '.attributes.q[0][2] > 0.5'],
  ] as const)('are bad lines with file:line in mix (%s) and the preview, and skipped under --skip-bad-lines', async (syntax, exclude) => {
    const root = dataset();
    const text = recipe(syntax, exclude);
    const mixError = await runMix(parseMixerConfig(text, 'r.yaml'), { cwd: root }).then(() => null, (e: unknown) => e as AssayError);
    expect(mixError).toBeInstanceOf(AssayError);
    expect(mixError?.code).toBe('PARSE');
    expect(mixError?.message).toMatch(/a\.jsonl\.gz:2: document is nested more than 127 levels deep/);
    await buildIndex(root);
    const e = PreviewEngine.open(root);
    try {
      expect(() => e.preview(text)).toThrow(mixError!.message);
    } finally {
      e.close();
    }
    const s = await runMix(parseMixerConfig(text.replace('path: out,', 'path: out2,'), 'r.yaml'), { cwd: root, skipBadLines: true });
    expect(s.streams[0]?.badLines.count).toBe(3);
    const out = readdirSync(join(root, 'out2')).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(root, 'out2', f)));
    expect(out.map((d) => d.id)).toEqual(['d0', 'd2']);
    expect(stringifySorted(out[1]!.metadata).length).toBeGreaterThan(127 * 3);
  });

  it('an attribute line nested too deep is a bad line too', async () => {
    const root = scratchDir();
    writeJsonl(join(root, 'documents/a.jsonl.gz'), [{ id: 'd0', text: 'x' }]);
    writeJsonl(join(root, 'attributes/p/a.jsonl.gz'), [`{"id":"d0","attributes":{"q":${'['.repeat(200)}${']'.repeat(200)}}}`]);
    await expect(runMix(parseMixerConfig(recipe('jsonpath', '$.x'), 'r.yaml'), { cwd: root })).rejects.toThrow(/a\.jsonl\.gz:1: attribute record is nested more than 127/);
  });
});

describe('the stringifiers on any depth', () => {
  it('stringifySorted and stringifyJson write 100,000-deep values and agree with JSON.stringify on shallow ones', () => {
    const text = '['.repeat(50_000) + '{"b":1,"a":[null,"x"]}' + ']'.repeat(50_000);
    const v = JSON.parse(text) as unknown;
    expect(stringifyJson(v)).toBe(text);
    expect(stringifySorted(v)).toBe(text.replace('{"b":1,"a":[null,"x"]}', '{"a":[null,"x"],"b":1}'));
    const shallow = { z: [1, 2.5, -0, 1e21, 'é\u2028"'], a: { c: null, b: true, u: undefined }, n: Number.NaN };
    expect(stringifyJson(shallow)).toBe(JSON.stringify(shallow));
  });
});
