// `assay mix` with the C addon reading attribute lines (mix/attr-lines.ts) writes what ASSAY_NATIVE=0's JSON.parse path writes.
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonStatus } from '../native-addon.js';
import { rng, tempDir } from '../testing.js';
import { runCli, withoutProgress } from './run-cli.js';

const { dir, cleanup } = tempDir('assay-native-mix-');
afterAll(cleanup);

const DOCS = 400;
const SETS = ['plain', 'python', 'pii'];

/** Attribute lines of every form a reader meets: compact, json.dumps-style, escaped, nested, repeated keys, `__proto__`. */
function attributeLine(set: string, id: unknown, i: number, r: () => number): string {
  const score = Math.round(r() * 1000) / 1000;
  switch (set) {
    case 'plain':
      return JSON.stringify({ id, attributes: { p__words: [[0, 10, Math.floor(r() * 60)]], p__score: [[0, 10, score]], p__empty: [], shared: [[0, 1, 1]] }, source: 'web' });
    case 'python': {
      // Python's json.dumps: spaces, floats written 1.0; some lines compact with non-canonical numbers, escapes, objects.
      const forms = [
        `{"id": ${JSON.stringify(id)}, "attributes": {"q__lang": [[0, 10, ${score === 0 ? '0.0' : score}]], "q__flag": [[0, 10, 1.0]]}}`,
        `{"id":${JSON.stringify(id)},"attributes":{"q__lang":[[0,10,${score}]],"q__flag":[[0,10,1.0]],"q__note":"caf\\u00e9"}}`,
        `{"id":${JSON.stringify(id)},"attributes":{"q__lang":[[0,10,${score}e0]],"q__flag":[[0,10,1]],"q__obj":{"z":1,"a":[1e-7,-0]}}}`,
        `{"id":${JSON.stringify(id)},"attributes":{"q__lang":[[0,10,${score}]],"q__flag":[[0,10,0]],"q__lang":[[0,10,0.99]]}}`,
        `{"id":${JSON.stringify(id)},"attributes":{"q__lang":[[0,10,${score}]],"q__flag":[[0,10,1]],"__proto__":[[0,1,1]]}}`,
        `{"id":${JSON.stringify(id)},"attributes":{"q__lang":[[0,10,${score}]],"q__flag":[[0,10,1]],"q__big":[[0,10,123456789012345678]],"q__tiny":[[0,10,0.0000001]]}}`,
      ];
      return forms[i % 7 === 0 ? 1 + (i % 5) : i % 2 === 0 ? 0 : 5] as string;
    }
    default:
      // Overwrites `shared` (the later file wins), and the e-mail spans the recipe replaces.
      return JSON.stringify({ id, attributes: { shared: [[0, 2, 0.25]], pii__EMAIL_ADDRESS: i % 3 === 0 ? [[4, 21, 1]] : [], pii__doc_count: [[0, 10, i % 4]] } });
  }
}

/** Document lines as writers write them: compact; Python's json.dumps (spaces, \u escapes); a float written 1.0; a repeated name. */
function documentLine(doc: Record<string, unknown>, i: number): string {
  const ascii = (text: string): string => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  switch (i % 5) {
    case 1:
      return `{${Object.entries(doc).map(([k, v]) => `"${k}": ${ascii(JSON.stringify(v))}`).join(', ')}}`;
    case 2:
      return `${JSON.stringify(doc).slice(0, -1)},"score":1.0,"n":[1e-7,-0]}`;
    case 3:
      return `{"source":"other",${JSON.stringify(doc).slice(1)}`;
    default:
      return JSON.stringify(doc);
  }
}

beforeAll(() => {
  const r = rng(17);
  const docs: string[] = [];
  const attrs: Record<string, string[]> = Object.fromEntries(SETS.map((s) => [s, []]));
  for (let i = 0; i < DOCS; i++) {
    // Mostly string ids; some numbers, and documents with attributes of their own (the JSON.parse path for those).
    const id = i % 23 === 0 ? i : `d${i}-${i % 11 === 0 ? 'é😀' : 'x'}`;
    const doc: Record<string, unknown> = { text: `hi, user${i}@example.com wrote ${'word '.repeat(i % 30)}\n`, id, source: 'web', metadata: { url: `https://e.org/${i}`, z: i } };
    if (i % 31 === 0) doc.attributes = { own: [[0, 1, 1]], shared: [[0, 1, 0]] };
    if (i % 6 === 2) doc.text = `café "${String(doc.text)}"\t\\ \u2028 😀 `;
    docs.push(documentLine(doc, i));
    for (const s of SETS) (attrs[s] as string[]).push(attributeLine(s, id, i, r));
  }
  const root = join(dir, 'src');
  for (const [sub, lines] of [['documents', docs], ...SETS.map((s) => [`attributes/${s}`, attrs[s] as string[]])] as [string, string[]][]) {
    mkdirSync(join(root, sub), { recursive: true });
    // Two files, so that a pool of two has one each.
    const half = lines.length / 2;
    writeFileSync(join(root, sub, 'part-0.jsonl.gz'), gzipSync(lines.slice(0, half).join('\n') + '\n'));
    writeFileSync(join(root, sub, 'part-1.jsonl.gz'), gzipSync(lines.slice(half).join('\n') + '\n'));
  }
  writeFileSync(
    join(root, 'recipe.yaml'),
    `streams:
  - name: s
    documents: [documents/*.jsonl.gz]
    attributes: [${SETS.join(', ')}]
    output: { path: out, max_size_in_bytes: 1000 }
    filter:
      exclude:
        - "$.attributes[?(@.p__words && @.p__words[0] && @.p__words[0][2] < 8)]"
        - "$.attributes[?(@.q__lang && @.q__lang[0] && @.q__lang[0][2] > 0.9)]"
        - "$.attributes[?(@.pii__doc_count && @.pii__doc_count[0] && @.pii__doc_count[0][2] == 3)]"
        - "$.attributes[?(@.shared && @.shared[0] && @.shared[0][2] == 0)]"
    span_replacement:
      - span: $.attributes.pii__EMAIL_ADDRESS
        min_score: 0.5
        replacement: " |||EMAIL||| "
`,
  );
});

/** Every output line of a run in a fresh copy of the data, as text. */
function mixed(name: string, env: NodeJS.ProcessEnv, args: string[] = []): string {
  const root = join(dir, name);
  cpSync(join(dir, 'src'), root, { recursive: true });
  const r = runCli(['mix', '-c', 'recipe.yaml', ...args], { cwd: root, env: { ...process.env, ...env } });
  expect(withoutProgress(r.stderr), name).toBe('');
  expect(r.code, `${name}: ${r.stderr}`).toBe(0);
  const processes = args.includes('--processes') ? args[args.indexOf('--processes') + 1] : undefined;
  if (processes !== undefined) expect(r.stdout, name).toContain(`with ${processes} process(es)`);
  return readdirSync(join(root, 'out'))
    .filter((f) => f.endsWith('.gz'))
    .sort()
    .map((f) => gunzipSync(readFileSync(join(root, 'out', f))).toString('utf8'))
    .join('');
}

describe.runIf(addonStatus().addon !== null)('assay mix with the C addon', () => {
  it('writes the documents and attributes the JSON.parse path writes, whatever form the attribute lines take', () => {
    const js = mixed('js', { ASSAY_NATIVE: '0' });
    const lines = js.trim().split('\n');
    // The rules dropped some and kept most; the e-mails were replaced; odd lines are in the output as parsed.
    expect(lines.length).toBeGreaterThan(DOCS / 3);
    expect(lines.length).toBeLessThan(DOCS);
    expect(js).toContain(' |||EMAIL||| ');
    expect(js).toContain('"q__note":"café"');
    expect(js).toContain('"q__obj":{"a":[1e-7,0],"z":1}');
    expect(js).toContain('"q__flag":[[0,10,1]]');
    expect(js).toContain('"__proto__":[[0,1,1]]');
    expect(js).toContain('"own":[[0,1,1]]');
    expect(js).toContain('"n":[1e-7,0],');
    expect(js).toContain('"text":"café \\"hi,');
    expect(mixed('addon', { ASSAY_REQUIRE_NATIVE: '1' })).toBe(js);
  });

  it('writes the same from a pool of worker threads (the pools of the app under Electron), each loading the addon', () => {
    const js = mixed('js-1', { ASSAY_NATIVE: '0' }, ['--processes', '1']);
    expect(mixed('threads', { ASSAY_POOL: 'threads', ASSAY_REQUIRE_NATIVE: '1' }, ['--processes', '2'])).toBe(js);
  });
});
