// The column programs agree with the mixer's evaluators document by document, and real recipes' rules compile.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileJqRule } from '../../mix/filters/jq/index.js';
import { compileJsonPathRule } from '../../mix/filters/jsonpath/index.js';
import { FilterEvalError, type Json } from '../../mix/filters/types.js';
import { tempDir, writeJsonl } from '../../testing.js';
import { buildIndex, PreviewEngine } from '../index.js';
import { IndexData } from '../store/data.js';
import { indexPath, openDatabase, type DB } from '../store/db.js';
import { SourceCache } from '../store/source.js';
import { T } from '../store/tags.js';
import { EvalContext } from './context.js';
import { Materializer } from './materialize.js';
import { planJq } from './plan-jq.js';
import { planJsonPath } from './plan-jsonpath.js';

/** Values of every shape a column can hold, and some it cannot (evaluated exactly). */
const VALUES: unknown[] = [
  [[0, 5, 0.25]], [[0, 5, 0.75]], [[0, 5, 1]], [[0, 5, 0.5], [5, 9, 0.9]], [], [[0, 2]], [[0, 4, 0.9, 'x']], [1, 2, 3],
  0.3, 0.8, 1, 0, true, false, null, 'low', 'high', '', { a: 1, b: [[0, 1, 0.6]] }, { a: 'z' }, [[0, 3, -1]],
];

const { dir: root, cleanup } = tempDir('assay-compile-');
let db: DB;
let data: IndexData;
let mat: Materializer;
let ctxFor: (sets: string[]) => EvalContext;

beforeAll(async () => {
  const docs = VALUES.flatMap((v, i) => [
    { id: `d${i}`, text: `some text ${i}`, source: i % 2 ? 'a' : 'b', metadata: i % 3 === 0 ? { length: i * 10, lang: i % 2 ? 'en' : 'de', tag: v } : i % 3 === 1 ? 'meta as a string' : { x: 1 } },
    { id: `e${i}`, text: i % 4 === 0 ? 42 : '', attributes: i % 2 ? { k: v, inline: 0.5 } : [v] },
  ]);
  writeJsonl(join(root, 'documents/x.jsonl'), docs);
  writeJsonl(join(root, 'attributes/s/x.jsonl'), docs.map((d, i) => ({ id: d.id, attributes: i % 5 === 4 ? {} : { k: VALUES[(i * 7) % VALUES.length], n: { a: VALUES[i % VALUES.length], b: [[0, 1, i / 40]] } } })));
  writeJsonl(join(root, 'attributes/t/x.jsonl'), docs.map((d, i) => ({ id: d.id, attributes: i % 3 ? { k: VALUES[i % VALUES.length] } : {} })));
  await buildIndex(root);
  db = openDatabase(indexPath(root), { readonly: true });
  data = new IndexData(db);
  mat = new Materializer(data, new SourceCache(root));
  ctxFor = (sets) => {
    const hasCursor = new Uint8Array(data.n).fill(sets.length > 0 ? 1 : 0);
    return new EvalContext(data, { sets, hasCursor, key: JSON.stringify(sets) });
  };
});
afterAll(() => {
  db?.close();
  cleanup();
});

const JSONPATH = [
  '$.attributes[?(@.k && @.k[0] && @.k[0][2] < 0.5)]', '$.attributes[?(@.k[0][2] >= 0.75)]', '$.attributes[?(@.k[0][-1] == 1)]',
  '$.attributes[?(@.k[1][2] > 0.5)]', '$.attributes[?(@.k > 0.5)]', '$.attributes[?(@.k == true)]', "$.attributes[?(@.k == 'low')]",
  '$.attributes[?(@.k != null)]', '$.attributes[?(@.k != 0.3)]', '$.attributes[?(@.k)]', '$.attributes[?(@.k[0])]', '$.attributes[?(!@.k)]',
  '$.attributes[?(@.k[0][0] == 0)]', '$.attributes[?(@.n.a > 0.5 || @.n.b[0][2] < 0.2)]', '$.attributes[?(@.k == @.inline)]',
  '$.attributes[?($.metadata.length > 50)]', '$.metadata[?(@.length < 100)]', "$.metadata[?(@.lang == 'en')]", '$.metadata[?(@.tag > 0.5)]',
  '$.attributes.k', '$.attributes.k[0]', '$.attributes.n.b', '$.id', '$.text', '$[?(@.source == "a")]', '$.attributes[?(@.inline)]',
  '$.attributes[?(!(@.k && @.k[0][2] > 0.5))]', '$.attributes[?(0.5 < @.k[0][2])]',
];

const JQ = [
  '.attributes.k[0][-1] > 0.5', '.attributes?.k?[0]?[2]? < 0.5', '(.attributes.k | length) > 1', '(.attributes.k | length) == 0',
  '(.attributes.k | if type == "array" and length > 0 and .[0] != null and .[0][2] != null then .[0][2] < 0.5 else false end)',
  '.attributes.k == "low"', '.attributes.k < "m"', '.attributes.k > 0.5', '.attributes.k != null and .attributes.k != false',
  '(.attributes.k | not)', '.attributes.n.a > 0.5 or .attributes.n.b[0][2] > 0.2', '.attributes.k[0][2] * 2 + 1 > 2', '.attributes.k',
  '.metadata.length > 50', '.metadata?.lang? == "en"', '(.text | length) > 11', '.source == "a"', '.attributes.inline', '.attributes.k[1]',
  '.attributes.k | type == "object"', '(.attributes.n.b | length) >= 1', '.attributes.k[0] == null', 'true', '.attributes.k / 2 > 0.2',
];

function agree(expr: string, syntax: 'jsonpath' | 'jq', sets: string[]): { compiled: boolean; unknown: number } {
  const plan = syntax === 'jq' ? planJq(expr, data.interner) : planJsonPath(expr, data.interner);
  if (plan.run === null) return { compiled: false, unknown: 0 };
  const rule = syntax === 'jq' ? compileJqRule(expr, 'exclude') : compileJsonPathRule(expr, 'exclude');
  const v = plan.run(ctxFor(sets));
  let unknown = 0;
  for (let g = 0; g < data.n; g++) {
    const doc = mat.merged(g, sets) as Json;
    let exact: number;
    try {
      exact = rule.evaluate([doc])[0] ? T.TRUE : T.FALSE;
    } catch (e) {
      if (!(e instanceof FilterEvalError)) throw e;
      exact = T.ERROR;
    }
    const got = v.tag[g] as number;
    if (got === T.UNKNOWN) unknown++;
    else expect(got, `${expr} [${sets.join(',')}] on ${JSON.stringify(doc)}`).toBe(exact);
  }
  return { compiled: true, unknown };
}

describe('column programs = the mixer\'s evaluators', () => {
  it.each([[[]], [['s']], [['t', 's']], [['s', 't']]])('JSONPath rules over sets %j', (sets) => {
    let unknown = 0;
    for (const expr of JSONPATH) {
      const r = agree(expr, 'jsonpath', sets as string[]);
      expect(r.compiled, expr).toBe(true);
      unknown += r.unknown;
    }
    // Irregular values go to the exact evaluator, but most documents are decided by the columns.
    expect(unknown).toBeLessThan(JSONPATH.length * data.n * 0.2);
  });

  it.each([[['s']], [['t', 's']]])('jq rules over sets %j (errors included)', (sets) => {
    for (const expr of JQ) expect(agree(expr, 'jq', sets as string[]).compiled, expr).toBe(true);
  });

  it('constructs outside the subset are left to the exact evaluator, with a reason', () => {
    for (const expr of ['$..k', '$.attributes.k[*][2]', '$.attributes[?(@.n.a.b)]', "$.attributes[?(@.k in ['low'])]", "$.metadata[?(@.lang ~= 'e.')]"]) {
      const p = planJsonPath(expr, data.interner);
      expect(p.run, expr).toBeNull();
      expect(p.reason).toBeTruthy();
    }
    for (const expr of ['any(.attributes.k[]?; .[2] > 0.5)', '(.attributes.k // []) | length', '.attributes | has("k")', '[.attributes.k[]?[2]] | add > 1']) {
      expect(planJq(expr, data.interner).run, expr).toBeNull();
    }
  });
});

describe('real recipes', () => {
  it("Dolma's production rules compile, with threshold sweeps located in the recipe text", () => {
    const e = PreviewEngine.open(root);
    try {
      const recipe = `streams:
  - name: c4
    documents: [documents/*]
    attributes: [s]
    output: {path: out/c4}
    filter:
      exclude:
        - "$.attributes[?(@.n.b && @.n.b[0] && @.n.b[0][2] < 0.5)]"
        - "$@.attributes[?(@.n.b && @.n.b[0] && @.n.b[0][2] >= 1.0)]"
        - '$.attributes[?(@.gopher__gopher_v1__fraction_of_characters_in_most_common_2gram && @.gopher__gopher_v1__fraction_of_characters_in_most_common_2gram[0] && @.gopher__gopher_v1__fraction_of_characters_in_most_common_2gram[0][2] > 0.2)]'
  - name: jq
    documents: [documents/*]
    attributes: [s]
    output: {path: out/jq}
    filter:
      syntax: jq
      exclude:
        - .attributes.n?.b?[0]?[-1]? <= 0.01
        - (.attributes.n?.b? | length) > 0
`;
      const r = e.preview(recipe);
      expect(r.rules.map((x) => x.path)).toEqual(['compiled', 'compiled', 'compiled', 'compiled', 'compiled']);
      expect(r.rules[2]?.missingKeys).toEqual(['gopher__gopher_v1__fraction_of_characters_in_most_common_2gram']);
      expect(r.rules[0]?.sweep).toMatchObject({ key: 'n.b', op: '<', threshold: 0.5, location: { line: 8, column: 62, endColumn: 65 } });
      expect(recipe.split('\n')[7]?.slice(61, 64)).toBe('0.5');
      expect(r.rules[1]?.sweep).toMatchObject({ op: '>=', threshold: 1, location: { line: 9 } });
      expect(r.rules[3]?.sweep).toMatchObject({ key: 'n.b', op: '<=', threshold: 0.01, location: { line: 18, column: 41, endColumn: 45 } });
      expect(recipe.split('\n')[17]?.slice(40, 44)).toBe('0.01');
      const sweep = r.rules[0]?.sweep;
      expect(sweep?.thresholds).toHaveLength(50);
      expect(sweep?.dropFraction.every((f, i, all) => f >= 0 && f <= 1 && (i === 0 || f >= (all[i - 1] as number)))).toBe(true);
    } finally {
      e.close();
    }
  });
});
