// Which attribute members a stream's JSONPath can read: named ones, or (null) possibly any.
import { describe, expect, it } from 'vitest';
import { attributeKeysRead } from './attribute-keys.js';

const keys = (rules: string[], selectors: string[] = []): string[] | null => {
  const k = attributeKeysRead(rules, selectors);
  return k === null ? null : [...k].sort();
};

describe('attributeKeysRead', () => {
  it("names the members of Dolma's guarded idiom and of span selectors", () => {
    expect(
      keys(
        ['$.attributes[?(@.a && @.a[0] && @.a[0][2] < 0.5)]', '$@.attributes[?(@.b__x && @.b__x[0] && @.b__x[0][2] >= 1.0)]'],
        ['$.attributes.spans', "$['attributes']['e-mail']"],
      ),
    ).toEqual(['a', 'b__x', 'e-mail', 'spans']);
    expect(keys(['$.attributes.a[0][2]', '$.attributes[?(@.c[*][2] > 1 || !@.d)]', '$.attributes.f[?(@[2] > 0)]'])).toEqual(['a', 'c', 'd', 'f']);
    // A root path inside a filter, and a union of names.
    expect(keys(['$.metadata[?($.attributes.g[0][2] > @.length)]', "$.attributes['h','i']"])).toEqual(['g', 'h', 'i']);
    // Paths that never reach attributes read none of them.
    expect(keys(['$.metadata[?(@.length > 10)]', '$.text', '$[?(@.source == "web")]', '$.metadata.*'])).toEqual([]);
    // A wildcard over the document reaches attributes, but then reads only the name after it.
    expect(keys(['$.*.a', '$[*][?(@.b)]'])).toEqual(['a', 'b']);
    // `attributes` itself found by a rule: only whether it exists counts.
    expect(keys(['$.attributes', '$[?(@.attributes)]'])).toEqual([]);
  });

  it('is null when a path may read any member', () => {
    for (const rule of [
      '$.attributes.*',
      '$.attributes[*][0][2]',
      '$..a',
      '$.attributes..a',
      '$.attributes[?(@ == 1)]',
      '$.attributes[?(@.a == $.attributes)]',
      '$[?(@ == 1)]',
      '$.attributes[?(@.*)]',
      '$.attributes[?(@..x)]',
    ]) {
      expect(keys([rule]), rule).toBeNull();
    }
    // A selector's value is read whole: attributes (or the document) selected means every member.
    expect(keys([], ['$.attributes'])).toBeNull();
    expect(keys([], ['$'])).toBeNull();
    expect(keys([], ['$.attributes[?(@.a)]'])).toBeNull();
  });
});
