import { describe, expect, it } from 'vitest';
import { recipeMarkers } from './markers.js';

const TEXT = 'streams:\n  - name: main\n    filter: {bad\n';

describe('recipeMarkers', () => {
  it('puts a located recipe error at its line and column, underlining the token', () => {
    const [m] = recipeMarkers(TEXT, { code: 'PARSE', message: 'unexpected end', line: 3, column: 13 }, []);
    expect(m).toMatchObject({ severity: 'error', startLineNumber: 3, startColumn: 13, endColumn: 17, message: 'unexpected end' });
  });

  it('marks the whole line content when there is no column, and line 1 when there is no line', () => {
    const ms = recipeMarkers(TEXT, null, [
      { severity: 'warning', line: 2, code: 'missing-key', message: 'no document has k' },
      { severity: 'warning', code: 'drops-nothing', message: 'drops nothing' },
    ]);
    expect(ms[0]).toMatchObject({ severity: 'warning', startLineNumber: 2, startColumn: 3, endColumn: 15 });
    expect(ms[1]).toMatchObject({ startLineNumber: 1 });
  });

  it('places a lint issue that names only a rule on that rule line, and clamps lines past the end', () => {
    const ms = recipeMarkers(TEXT, { code: 'CONFIG', message: 'x', line: 40 }, [{ severity: 'error', rule: 0, code: 'syntax', message: 'bad' }], new Map([[0, 3]]));
    expect(ms.map((m) => m.startLineNumber)).toEqual([4, 3]);
  });
});
