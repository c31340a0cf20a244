// RecipeLocator.comment: the comment naming a rule (trailing on its line, else the comment lines right above it).
import { describe, expect, it } from 'vitest';
import { RecipeLocator } from './locate.js';

const TEXT = `streams:
  - name: s
    filter:
      exclude:
        # C4: placeholder text
        # and script notices
        - "$.a"
        - "$.b"   # trailing b
        - "$.c"

        # after a blank line
        - "$.d"
    span_replacement:
      - {span: $.x, replacement: ""}  # flow map
      - span: $.y # block map
        replacement: ""
      # above a block map
      - span: $.z
        replacement: "#not a comment"
`;

describe('RecipeLocator.comment', () => {
  const loc = new RecipeLocator(TEXT);
  const ex = (i: number) => loc.comment(['streams', 0, 'filter', 'exclude', i]);
  const sr = (i: number) => loc.comment(['streams', 0, 'span_replacement', i]);
  it('finds trailing and preceding comments, and nothing for rules without one', () => {
    expect(ex(0)).toBe('C4: placeholder text and script notices');
    expect(ex(1)).toBe('trailing b');
    expect(ex(2)).toBeUndefined();
    expect(ex(3)).toBe('after a blank line');
    expect(sr(0)).toBe('flow map');
    expect(sr(1)).toBe('block map');
    expect(sr(2)).toBe('above a block map');
    expect(new RecipeLocator('{"streams": [{"filter": {"exclude": ["$.a"]}}]}').comment(['streams', 0, 'filter', 'exclude', 0])).toBeUndefined();
  });
});
