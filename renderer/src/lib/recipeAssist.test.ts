import { describe, expect, it } from 'vitest';
import { workspaceInfo } from '../testing/fixtures.js';
import { hoverMarkdown, suggestions, tokenAt } from './recipeAssist.js';

describe('recipe assist', () => {
  it('finds the attribute key around the cursor, not the JSONPath around it', () => {
    const line = '  - "$.attributes[?(@.demo__gopher_v1__word_count[0][2] < 50)]"';
    const col = line.indexOf('gopher') + 1;
    expect(tokenAt(line, col)).toEqual({ word: 'demo__gopher_v1__word_count', startColumn: line.indexOf('demo') + 1, endColumn: line.indexOf('[0]') + 1 });
    expect(tokenAt('abc', 99).word).toBe('abc');
    expect(tokenAt('   ', 2).word).toBe('');
  });

  it('suggests every catalogue key and each tagger once', () => {
    const info = workspaceInfo();
    const s = suggestions([...info.attributes, { ...(info.attributes[0] as (typeof info.attributes)[number]), key: 'demo__gopher_v1__mean_word_length' }]);
    expect(s.map((x) => [x.label, x.kind])).toEqual([
      ['demo__gopher_v1__word_count', 'attribute'],
      ['demo__gopher_v1__mean_word_length', 'attribute'],
      ['gopher_v1', 'tagger'],
    ]);
  });

  it('summarises a key: tagger, coverage, range and quantiles', () => {
    const md = hoverMarkdown(workspaceInfo().attributes[0] as never);
    expect(md).toContain('gopher_v1');
    expect(md).toContain('600 documents');
    expect(md).toContain('range 3 … 900');
    expect(md).toContain('p50 120');
  });
});
