// runMix end to end: sharding and naming, layouts, codecs, processes, summaries, cancellation.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonlFile,  writeJsonl, scratchDir } from '../testing.js';
import { parseMixerConfig } from './config.js';
import { runMix } from './mixer.js';


/** `files` documents files of `per` docs each, with a `score` attribute set (score = doc index / total). */
function dataset(files: number, per: number, ext = '.jsonl.gz'): { dir: string; total: number } {
  const dir = scratchDir();
  const total = files * per;
  for (let f = 0; f < files; f++) {
    const docs = Array.from({ length: per }, (_, i) => {
      const n = f * per + i;
      return { id: `d${n}`, text: `Doc ${n}: ${'lorem ipsum '.repeat(1 + (n % 7))}mail me at a${n}@x.org today.`, source: f % 2 ? 'web' : 'books' };
    });
    const name = `${String(f).padStart(3, '0')}${ext}`;
    writeJsonl(join(dir, 'ds/documents', name), docs);
    writeJsonl(
      join(dir, 'ds/attributes/score', name),
      docs.map((d, i) => {
        const n = f * per + i;
        const at = d.text.indexOf(`a${n}@`);
        return { id: d.id, attributes: { score: [[0, d.text.length, n / total]], email: [[at, at + `a${n}@x.org`.length, 1]] } };
      }),
    );
  }
  return { dir, total };
}

const recipe = (out: string, extra = '', processes = 1): string => `streams:
  - name: mixed
    documents: [ds/documents/*]
    attributes: [score]
    output:
      path: ${out}
      max_size_in_bytes: 100000000
${extra}    filter:
      exclude:
        - "$.attributes[?(@.score && @.score[0] && @.score[0][2] >= 0.75)]"
        - "$.attributes[?(@.score && @.score[0] && @.score[0][2] < 0.1)]"
    span_replacement:
      - span: $.attributes.email
        min_score: 0.5
        replacement: "|||EMAIL|||"
processes: ${processes}
`;

function outputs(dir: string): string[] {
  return readdirSync(dir).filter((f) => !f.startsWith('.')).sort();
}

describe('runMix', () => {
  it('filters, redacts, sums up per rule and writes the summary beside the output', async () => {
    const { dir, total } = dataset(2, 50);
    const s = await runMix(parseMixerConfig(recipe('out'), 'r.yaml'), { cwd: dir });
    const st = s.streams[0]!;
    expect(st.docs).toEqual({ read: total, kept: 65, dropped: 35 });
    expect(st.droppedBy.map((d) => [d.key, d.docs])).toEqual([
      ['exclude[0]', 25],
      ['exclude[1]', 10],
    ]);
    const rows = readJsonlFile(join(dir, 'out/mixed-0000.json.gz'));
    expect(rows).toHaveLength(65);
    expect(rows[0]!.text).toMatch(/mail me at \|\|\|EMAIL\|\|\| today\.$/);
    expect((rows[0]!.metadata as Record<string, unknown>).provenance).toBe('000.jsonl.gz:11');
    // Keys are sorted, compact, like serde_json.
    const firstLine = readFileSync(join(dir, 'out/mixed-0000.json.gz'));
    expect(firstLine.length).toBeGreaterThan(0);
    const summary = JSON.parse(readFileSync(st.summaryFile, 'utf8')) as typeof st;
    expect(summary.docs).toEqual(st.docs);
    expect(st.bytes.in).toBeGreaterThan(0);
    expect(st.bytes.out).toBeGreaterThan(0);
  });

  it('packs shards by input size with Dolma names: earlier .jsonl.gz, last .json.gz', async () => {
    const { dir } = dataset(5, 20);
    // A budget smaller than any single file: every input forms its own shard and is still written whole.
    const cfg = parseMixerConfig(recipe('out').replace('max_size_in_bytes: 100000000', 'max_size_in_bytes: 10'), 'r.yaml');
    const s = await runMix(cfg, { cwd: dir });
    expect(outputs(join(dir, 'out'))).toEqual(['mixed-0000.jsonl.gz', 'mixed-0001.jsonl.gz', 'mixed-0002.jsonl.gz', 'mixed-0003.jsonl.gz', 'mixed-0004.json.gz']);
    expect(s.streams[0]!.docs.read).toBe(100);
    const budget = parseMixerConfig(recipe('out2').replace('max_size_in_bytes: 100000000', 'max_size_in_bytes: 1200'), 'r.yaml');
    await runMix(budget, { cwd: dir });
    const names = outputs(join(dir, 'out2'));
    expect(names.length).toBeGreaterThan(1);
    expect(names.length).toBeLessThan(5);
    expect(names.at(-1)).toMatch(/\.json\.gz$/);
  });

  it('shuffle: false writes one output per input under <path>/documents/, keeping names', async () => {
    const { dir } = dataset(3, 10);
    const cfg = parseMixerConfig(recipe('out') + 'shuffle: false\n', 'r.yaml');
    await runMix(cfg, { cwd: dir });
    expect(outputs(join(dir, 'out/documents'))).toEqual(['000.jsonl.gz', '001.jsonl.gz', '002.jsonl.gz']);
  });

  it('honours compression.output (zst and plain) and compression.input', async () => {
    const { dir } = dataset(1, 10);
    await runMix(parseMixerConfig(recipe('zst', '    compression: {output: zst}\n'), 'r.yaml'), { cwd: dir });
    expect(outputs(join(dir, 'zst'))).toEqual(['mixed-0000.json.zst']);
    expect(readFileSync(join(dir, 'zst/mixed-0000.json.zst')).subarray(0, 4)).toEqual(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
    await runMix(parseMixerConfig(recipe('plain', '    compression: {output: ""}\n'), 'r.yaml'), { cwd: dir });
    expect(outputs(join(dir, 'plain'))).toEqual(['mixed-0000.json']);
    expect(readFileSync(join(dir, 'plain/mixed-0000.json'), 'utf8').split('\n')[0]).toMatch(/^\{"attributes":\{"email":\[\[\d+,\d+,1\]\],"score":.*\},"id":"d1","metadata":\{"provenance":"000\.jsonl\.gz:2"\},"source":"books","text":/);
    const bad = parseMixerConfig(recipe('x', '    compression: {output: lz4}\n'), 'r.yaml');
    await expect(runMix(bad, { cwd: dir })).rejects.toMatchObject({ code: 'CONFIG', field: 'streams[0].compression.output' });
  });

  it('2 processes write byte-identical shards to 1 process', async () => {
    const { dir } = dataset(6, 40);
    const budget = 'max_size_in_bytes: 2500';
    await runMix(parseMixerConfig(recipe('one').replace('max_size_in_bytes: 100000000', budget), 'r.yaml'), { cwd: dir, processes: 1 });
    const s2 = await runMix(parseMixerConfig(recipe('two', '', 2).replace('max_size_in_bytes: 100000000', budget), 'r.yaml'), { cwd: dir });
    expect(s2.processes).toBe(2);
    const one = outputs(join(dir, 'one'));
    expect(one.length).toBeGreaterThan(1);
    expect(outputs(join(dir, 'two'))).toEqual(one);
    for (const f of one) expect(readFileSync(join(dir, 'two', f)).equals(readFileSync(join(dir, 'one', f)))).toBe(true);
  });

  it('a failure in a pool worker fails the run with file:line and leaves no shard behind', async () => {
    const { dir } = dataset(4, 10);
    writeJsonl(join(dir, 'ds/attributes/score/002.jsonl.gz'), [{ id: 'wrong', attributes: {} }]);
    const cfg = parseMixerConfig(recipe('out', '', 2).replace('max_size_in_bytes: 100000000', 'max_size_in_bytes: 10'), 'r.yaml');
    const run = runMix(cfg, { cwd: dir });
    await expect(run).rejects.toMatchObject({ code: 'MISMATCH', line: 1 });
    await expect(run).rejects.toThrow(/score\/002\.jsonl\.gz:1: mismatched ids/);
    expect(existsSync(join(dir, 'out')) ? outputs(join(dir, 'out')).filter((f) => f.endsWith('.json.gz')) : []).toEqual([]);
  });

  it('cancels through an AbortSignal and keeps no partial output', async () => {
    const { dir } = dataset(3, 400);
    const controller = new AbortController();
    const run = runMix(parseMixerConfig(recipe('out'), 'r.yaml'), {
      cwd: dir,
      signal: controller.signal,
      // At the first report of input read (the readers read ahead, so it may come before any document count).
      onProgress: (p) => p.done > 0 && controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    const left = existsSync(join(dir, 'out')) ? outputs(join(dir, 'out')) : [];
    expect(left).toEqual([]);
  });

  it('cancels a 2-process run too, leaving neither outputs nor temporary files', async () => {
    const { dir } = dataset(4, 300);
    const controller = new AbortController();
    const cfg = parseMixerConfig(recipe('out', '', 2).replace('max_size_in_bytes: 100000000', 'max_size_in_bytes: 10'), 'r.yaml');
    const run = runMix(cfg, { cwd: dir, signal: controller.signal, onProgress: (p) => p.done > 0 && controller.abort() });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(dir, 'out')) ? outputs(join(dir, 'out')) : []).toEqual([]);
  });

  it('rejects a hostile recipe before writing anything', async () => {
    const { dir } = dataset(1, 5);
    for (const expr of ["$[?(@.constructor.constructor('return process')())]", '$.a' + '[?(@.x'.repeat(5000)]) {
      const cfg = parseMixerConfig(recipe('out').replace('"$.attributes[?(@.score && @.score[0] && @.score[0][2] < 0.1)]"', JSON.stringify(expr)), 'r.yaml');
      await expect(runMix(cfg, { cwd: dir })).rejects.toMatchObject({ code: 'CONFIG', field: 'streams[0].filter.exclude[1]' });
    }
    const jq = recipe('out').replace(/filter:\n {6}exclude:\n.*\n.*\n/, 'filter:\n      syntax: jq\n      include: ["env.PATH != null"]\n');
    await expect(runMix(parseMixerConfig(jq, 'r.yaml'), { cwd: dir })).rejects.toMatchObject({ code: 'CONFIG' });
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it("evaluates spec §3.5 expression 22 with ${oc.env:ALPHA} interpolated from the environment", async () => {
    const dir = scratchDir();
    const key = 'HuggingFaceFW_fineweb-edu-classifier_score';
    const docs = [
      { id: 'a', text: 'x', attributes: { [key]: [[0, 1, 3.0]], [`${key}_original`]: [[0, 1, 2.5]], random_number_v1__random_number_v1__random: [[0, 1, 0.5]] } },
      { id: 'b', text: 'y', attributes: { [key]: [[0, 1, 3.0]], [`${key}_original`]: [[0, 1, 2.9]], random_number_v1__random_number_v1__random: [[0, 1, 0.5]] } },
      { id: 'c', text: 'z', attributes: { [key]: [[0, 1, 3.0]], [`${key}_original`]: [[0, 1, 2.9]], random_number_v1__random_number_v1__random: [[0, 1, 1.0]] } },
      { id: 'd', text: 'w', attributes: {} },
    ];
    writeJsonl(join(dir, 'documents/0.jsonl'), docs);
    const expr = `((.attributes."${key}" != null and .attributes."${key}_original" != null) and ((\${oc.env:ALPHA} * (.attributes.random_number_v1__random_number_v1__random[0][-1] * 2 - 1)) + (.attributes."${key}"[0][-1]) - .attributes."${key}_original"[0][-1]) > 0.30)`;
    const text = `streams:\n  - name: s\n    documents: [documents/*.jsonl]\n    output: {path: out}\n    filter:\n      syntax: jq\n      include:\n        - ${JSON.stringify(expr)}\n`;
    await runMix(parseMixerConfig(text, 'r.yaml', { ALPHA: '0.5' }), { cwd: dir });
    // a: 0 + 3.0 - 2.5 = 0.5 > 0.3 keep; b: 0.1 no; c: 0.5*1 + 0.1 = 0.6 keep; d: null guard → false
    expect(readJsonlFile(join(dir, 'out/s-0000.json.gz')).map((r) => r.id)).toEqual(['a', 'c']);
  });
});
