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

  it('underlines exactly the columns a lint issue gives (an output path outside the workspace)', () => {
    const text = 'streams:\n  - output:\n      path: ../../elsewhere\n';
    const [m] = recipeMarkers(text, null, [{ severity: 'error', code: 'outside-workspace', line: 3, column: 13, endColumn: 28, message: 'outside' }]);
    expect(m).toMatchObject({ severity: 'error', startLineNumber: 3, startColumn: 13, endColumn: 28, source: 'lint: outside-workspace' });
  });

  it('marks a refused run where it was refused, and the same error reported twice only once', () => {
    const ms = recipeMarkers(TEXT, { code: 'CONFIG', message: 'unexpected end', line: 3, column: 13 }, [{ severity: 'error', code: 'syntax', line: 3, message: 'unexpected end' }], new Map(), {
      refused: { code: 'CONFIG', message: 'unexpected end', line: 3, column: 13 },
    });
    expect(ms.map((m) => [m.startLineNumber, m.message])).toEqual([
      [3, 'run refused: unexpected end'],
      [3, 'unexpected end'],
    ]);
  });
});

describe('recipeMarkers: a parse error reported after the edit (issue 11.14)', () => {
  const text = Array.from({ length: 40 }, (_, i) => `key${i + 1}: ${i + 1}`).join('\n');
  const err = { code: 'CONFIG', message: 'All mapping items must start at the same column', line: 27 };

  it('also marks the line last edited when the parser reports a later line', () => {
    const ms = recipeMarkers(text, err, [], new Map(), { lastEditLine: 13 });
    expect(ms).toHaveLength(2);
    expect(ms[1]).toMatchObject({ severity: 'error', startLineNumber: 13, startColumn: 1, message: expect.stringContaining('the error is reported at line 27; you last edited line 13') });
  });

  it('takes the first reported line among the preview error and the lint syntax issues', () => {
    const ms = recipeMarkers(text, { ...err, line: 30 }, [{ severity: 'error', code: 'syntax', line: 27, message: 'x' }], new Map(), { lastEditLine: 13 });
    expect(ms.at(-1)?.message).toContain('reported at line 27');
  });

  it('adds nothing when the error is at or before the edit, when nothing was edited, or for errors placed exactly', () => {
    for (const lastEditLine of [27, 30, null]) expect(recipeMarkers(text, err, [], new Map(), { lastEditLine })).toHaveLength(1);
    expect(recipeMarkers(text, null, [{ severity: 'error', code: 'outside-workspace', line: 27, message: 'outside' }], new Map(), { lastEditLine: 13 })).toHaveLength(1);
    expect(recipeMarkers(text, null, [{ severity: 'warning', code: 'missing-key', line: 27, message: 'k' }], new Map(), { lastEditLine: 13 })).toHaveLength(1);
  });
});
