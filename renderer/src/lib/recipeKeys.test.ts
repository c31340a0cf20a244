import { describe, expect, it } from 'vitest';
import { docPath, keyPathAt, RECIPE_KEY_DOCS, recipeKeys } from './recipeKeys.js';

const RECIPE = `# a recipe
streams:
  - name: web
    documents:
      - documents/*.jsonl.gz
    attributes: [gopher]
    output:
      path: output/web
      max_size_in_bytes: 1000000
    filter:
      exclude:
        - "$.attributes[?(@.k && @.k[0] && @.k[0][2] > 0.5)]"
    span_replacement:
      - span: $.attributes.pii
        min_score: 0.5
processes: 2
`;
const lines = RECIPE.split('\n');
/** The path at the end of line `l` (1-based) with `typed` replacing its text. */
const at = (l: number, typed: string): string[] | null => keyPathAt([...lines.slice(0, l - 1), typed, ...lines.slice(l)], l - 1, typed.length);
const names = (path: string[] | null): string[] => (path === null ? [] : recipeKeys(path).map((k) => k.key));

describe('recipe key completion', () => {
  it('knows which mapping a key is typed in, from the indentation and list dashes above', () => {
    expect(at(17, 'proc')).toEqual([]);
    expect(at(3, '  - na')).toEqual(['streams', '[]']);
    expect(at(6, '    attr')).toEqual(['streams', '[]']);
    expect(at(9, '      max_')).toEqual(['streams', '[]', 'output']);
    expect(at(11, '      incl')).toEqual(['streams', '[]', 'filter']);
    expect(at(15, '        max')).toEqual(['streams', '[]', 'span_replacement', '[]']);
    expect(at(15, '      - ')).toEqual(['streams', '[]', 'span_replacement', '[]']);
    expect(at(16, '  - ')).toEqual(['streams', '[]']);
    expect(at(17, '  - ')).toEqual(['processes', '[]']);
  });

  it('offers nothing inside a value, a flow collection or a comment', () => {
    expect(at(8, '      path: out')).toBeNull();
    expect(at(6, '    attributes: [go')).toBeNull();
    expect(at(1, '# stre')).toBeNull();
  });

  it('offers the keys the schema accepts there, with their types and what they do', () => {
    expect(names(at(17, 'p'))).toEqual(['streams', 'work_dir', 'processes', 'shuffle', 'dryrun', 'assay']);
    expect(names(at(9, '      m'))).toEqual(['path', 'max_size_in_bytes', 'discard_fields', 'min_text_length']);
    expect(names(at(15, '        '))).toEqual(['span', 'min_score', 'max_score', 'replacement', 'syntax']);
    const keys = recipeKeys(['streams', '[]']);
    expect(keys.find((k) => k.key === 'documents')).toMatchObject({ type: 'list of strings', doc: expect.stringContaining('Globs') as string });
    expect(keys.find((k) => k.key === 'output')).toMatchObject({ type: 'object' });
    expect(keys.find((k) => k.key === 'span_replacement')).toMatchObject({ type: 'list of objects' });
    expect(recipeKeys(['streams', '[]', 'filter']).find((k) => k.key === 'syntax')?.type).toBe('jsonpath | jq');
    expect(recipeKeys(['processes'])).toEqual([]);
    // Below a list key without its dash there is no mapping yet.
    expect(recipeKeys(['streams'])).toEqual([]);
    expect(names(['streams', '[]', 'assay'])).toEqual(['allow_missing_attributes', 'sample', 'repeat']);
  });

  it('documents only keys the schema has (so the table cannot drift from it)', () => {
    for (const place of Object.keys(RECIPE_KEY_DOCS)) {
      const parts = place.replace(/\[\]/g, '.[]').split('.');
      const key = parts.pop() as string;
      const known = recipeKeys(parts).map((k) => k.key);
      expect(known, place).toContain(key);
      expect(docPath([...parts, key])).toBe(place);
    }
  });
});
