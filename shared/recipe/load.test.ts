import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseRepeats, parseRecipe } from './load.js';

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

describe('bounds before and after parsing', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`), 'streams: []', ''].join('\n');
  /** Run `f` with most of the stack used, as in the host's deep call chains, where a parser overflow aborted Node. */
  const deepInStack = <T>(f: () => T, depth = 4_000): T => (depth === 0 ? f() : deepInStack(f, depth - 1));

  it.each([
    ['100,000 [', '['.repeat(100_000), 1, /nests deeper than 64/],
    ['100,000 {', '{'.repeat(100_000), 1, /nests deeper than 64/],
    ['deep flow on line 3', 'processes: 1\nstreams:\n  - ' + '['.repeat(3_000), 3, /nests deeper than 64/],
    ['deep block indentation', Array.from({ length: 200 }, (_, i) => `${' '.repeat(i * 2)}k${i}:`).join('\n'), 65, /nests deeper than 64/],
    ['compact sequences', 'a:\n' + '- '.repeat(5_000) + 'x\n', 2, /nests deeper than 64/],
    ['an oversized config', `a: "${'x'.repeat(1_100_000)}"\n`, 1, /characters long; the limit is 1,048,576/],
    ['an unresolved alias', minimal() + 'processes: *nope\n', 6, /unresolved alias \*nope/],
    ['an alias inside its own anchor', 'x: &a [1, [*a]]\n' + minimal(), 1, /inside the node it refers to/],
    ['an alias bomb', bomb, 4, /alias bomb/],
  ])('%s is a located syntax issue, even deep in the stack', (_what, text, line, message) => {
    const start = performance.now();
    const r = deepInStack(() => parseRecipe(text, ctx));
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]).toMatchObject({ field: '(syntax)', line, message: expect.stringMatching(message) });
  });

  it('brackets in quotes, comments, block scalars and plain scalars do not count as nesting', () => {
    const b = '['.repeat(200);
    const text = `# ${b}
streams:
  - name: "${b}"
    documents:
      - '${b}'
      - x${b}
    output: {path: out}
    filter:
      syntax: jq
      include:
        - |
          ${b}
          {{{{
`;
    const r = parseRecipe(text, ctx);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.config.streams[0]?.documents).toEqual([b, `x${b}`]);
  });

  it('anchors and aliases of ordinary size still work, reused across streams', () => {
    const text = `streams:
  - name: a
    documents: &docs [a/*.gz, b/*.gz]
    output: {path: out/a}
    filter: &f {include: ["$.id"]}
  - name: b
    documents: *docs
    output: {path: out/b}
    filter: *f
`;
    const r = parseRecipe(text, ctx);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.config.streams[1]?.documents).toEqual(['a/*.gz', 'b/*.gz']);
    // 63 levels of nesting are parsed (the key is then unknown to the schema).
    const deep = parseRecipe(`x: ${'['.repeat(62)}${']'.repeat(62)}\n` + minimal(), ctx);
    expect(!deep.ok && deep.issues[0]?.message).toBe("unknown key 'x'");
  });
});

describe('syntax errors of one slip', () => {
  it('report a repeated complaint once, naming the other lines, and at most five issues', () => {
    // The first key of a stream indented three columns too far: every sibling key after it is 'misaligned'.
    const lines = ['streams:', '     - name: a'];
    for (let i = 0; i < 30; i++) lines.push(`    k${i}: ${i}`);
    const r = parseRecipe(lines.join('\n'), { env: {}, cpuCount: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.length).toBeLessThanOrEqual(5);
    const repeated = r.issues.find((i) => /also on lines/.test(i.message));
    expect(repeated?.message).toMatch(/and \d+ more\)$/);
  });

  it('collapseRepeats keeps distinct messages in order', () => {
    const out = collapseRepeats([{ message: 'a', line: 1 }, { message: 'b', line: 2 }, { message: 'a', line: 3 }, { message: 'a', line: 7 }]);
    expect(out).toEqual([{ message: 'a (also on lines 3, 7)', line: 1 }, { message: 'b', line: 2 }]);
  });
});
