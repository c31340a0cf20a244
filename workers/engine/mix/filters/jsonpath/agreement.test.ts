// Differential test against jsonpath-plus: same answers where both follow one semantics, and the
// documented places where jsonpath-plus departs from Dolma's jsonpath-rust (why we do not delegate).

import { JSONPath } from 'jsonpath-plus';
import { describe, expect, it } from 'vitest';
import type { Json } from '../types.js';
import { compileJsonPath, plainSteps } from './index.js';

/** jsonpath-plus with its script evaluator disabled; `[?()]` / `[()]` throw instead of running code. */
function plus(path: string, json: Json): Json[] {
  return JSONPath({ path, json: json as object, eval: false, wrap: true }) as Json[];
}

const DOCS: Json[] = [
  { id: 'a', text: 'hello', attributes: { k: [[0, 5, 0.25], [5, 9, 1]], pii: { email: [[1, 2, 0.9]], too_much_pii: false } }, metadata: { length: 42, url: 'u' } },
  { id: 'b', attributes: {}, metadata: {} },
  { id: 'c', attributes: { k: [] , 'x y': { z: null } }, list: [[1, [2, 3]], { q: true }] },
  { id: 'd', attributes: { k: 7 }, list: [] },
];

const PLAIN = [
  '$.id',
  '$.text',
  '$.attributes',
  '$.attributes.k',
  '$.attributes.k[0]',
  '$.attributes.k[1][2]',
  '$.attributes.k[0][2]',
  '$.attributes.k[7]',
  '$.attributes.pii.email[0][2]',
  '$.attributes.pii.too_much_pii',
  "$['attributes']['x y']",
  "$['attributes']['x y'].z",
  '$.metadata.length',
  '$.list[0][1][0]',
  '$.list[1].q',
  '$.missing',
  '$.missing.deeper[0]',
];

describe('plain paths (compiled to direct accessors) agree with jsonpath-plus', () => {
  it.each(PLAIN)('%s', (path) => {
    expect(plainSteps(compileJsonPath(path).ast)).not.toBeNull(); // really the fast path
    for (const doc of DOCS) {
      expect(compileJsonPath(path).findAll(doc), JSON.stringify(doc)).toEqual(plus(path, doc));
    }
  });
});

/** Order of `..` and `*` results is not specified by either library; compare as multisets. */
const sorted = (xs: Json[]): string[] => xs.map((x) => JSON.stringify(x)).sort();

describe('general paths agree with jsonpath-plus as multisets', () => {
  it.each(['$.attributes.*', '$.attributes[*]', '$..k', '$..email', '$..*', '$.list[*][0]', '$.attributes.k[0:1]', '$.attributes.k[0,1]', '$.attributes.k[:]', '$.list..q'])(
    '%s',
    (path) => {
      for (const doc of DOCS) expect(sorted(compileJsonPath(path).findAll(doc)), JSON.stringify(doc)).toEqual(sorted(plus(path, doc)));
    },
  );
});

describe('where jsonpath-plus departs from jsonpath-rust, we follow jsonpath-rust', () => {
  const doc = { attributes: { k: [[0, 5, 0.25]] }, arr: [1, 2, 3], s: 'text' };

  it('`.length` on an array or string is a missing key, not the JS length', () => {
    expect(plus('$.arr.length', doc)).toEqual([3]);
    expect(compileJsonPath('$.arr.length').findAll(doc)).toEqual([]);
    expect(plus('$.s.length', doc)).toEqual([4]);
    expect(compileJsonPath('$.s.length').findAll(doc)).toEqual([]);
  });

  it('indexes select array elements only, never characters of a string', () => {
    expect(plus('$.s[0]', doc)).toEqual(['t']);
    expect(compileJsonPath('$.s[0]').findAll(doc)).toEqual([]);
  });

  it('negative indexes count from the end', () => {
    expect(plus('$.arr[-1]', doc)).toEqual([]);
    expect(compileJsonPath('$.arr[-1]').findAll(doc)).toEqual([3]);
  });

  it('the Dolma filter idiom tests the object itself (plus needs its evaluator and tests children)', () => {
    const expr = '$.attributes[?(@.k && @.k[0] && @.k[0][2] < 0.5)]';
    expect(() => plus(expr, doc)).toThrow(/Eval \[\?\(expr\)\] prevented/);
    expect(compileJsonPath(expr).findAll(doc)).toEqual([doc.attributes]);
  });

  it('deep documents do not overflow the stack', () => {
    let deep: Json = 1;
    for (let i = 0; i < 5_000; i++) deep = { k: deep };
    expect(() => plus('$..*', deep)).toThrow(RangeError);
    expect(compileJsonPath('$..*').findAll(deep)).toHaveLength(5_000);
  });
});
