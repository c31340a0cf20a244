// A preview reports its rules as it evaluates them (the exact-figures job's progress); nothing is reported without a report installed.
import { describe, expect, it } from 'vitest';
import { setRuleProgress } from './rule-progress.js';
import { indexedDataset } from './test-dataset.js';

const WC = (t: number): string => `$.attributes[?(@.gopher__gopher_v1__word_count && @.gopher__gopher_v1__word_count[0][2] < ${t})]`;
// Two streams over the same files: each evaluates its own rules.
const recipe = (t: number): string =>
  ['a', 'b']
    .map((name, i) => `  - name: ${name}\n    documents: [documents/**/*]\n    attributes: [gopher]\n    output: {path: out/${name}}\n    filter:\n      exclude:\n${[WC(t + i), WC(t + 10 + i), WC(t + 20 + i)].map((e) => `        - "${e}"`).join('\n')}\n`)
    .join('')
    .replace(/^/, 'streams:\n');

describe('rule progress', () => {
  const ds = indexedDataset('assay-rule-progress-');

  it('counts every stream’s rules from 0 to all of them, in order, and stops reporting once removed', () => {
    const seen: [number, number][] = [];
    setRuleProgress((done, total) => seen.push([done, total]));
    try {
      ds.engine().preview(recipe(30));
    } finally {
      setRuleProgress(null);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6].map((d) => [d, 6]));
    seen.length = 0;
    ds.engine().preview(recipe(40));
    expect(seen).toEqual([]);
  });
});
