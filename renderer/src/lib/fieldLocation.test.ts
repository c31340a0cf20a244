import { describe, expect, it } from 'vitest';
import { locateField, parseField } from './fieldLocation.js';

describe('locateField', () => {
  it('parses dotted fields with indexes', () => {
    expect(parseField('streams[0].output.path')).toEqual(['streams', 0, 'output', 'path']);
    expect(parseField('work_dir.input')).toEqual(['work_dir', 'input']);
  });

  it('finds the value of a field in block and flow YAML, and in JSON', async () => {
    const block = 'streams:\n  - name: a\n  - name: b\n    output:\n      path: ../out\n';
    expect(await locateField(block, 'streams[1].output.path')).toEqual({ line: 5, column: 13, endColumn: 19 });
    const flow = 'streams: [{name: a, output: {path: "../x"}}]\n';
    expect(await locateField(flow, 'streams[0].output.path')).toEqual({ line: 1, column: 36, endColumn: 42 });
    const json = '{\n  "destination": "/tmp/tokens"\n}\n';
    expect(await locateField(json, 'destination')).toEqual({ line: 2, column: 18, endColumn: 31 });
  });

  it('points at the key when the value spans lines, at the deepest existing part, or nowhere when the text does not parse', async () => {
    const text = 'streams:\n  - documents:\n      - a/*.gz\n      - ../b/*.gz\n';
    expect(await locateField(text, 'streams[0].documents')).toEqual({ line: 2, column: 5, endColumn: 14 });
    expect(await locateField(text, 'streams[0].output.path')).toEqual({ line: 2, column: 5, endColumn: 15 });
    expect(await locateField('a: "unclosed\n', 'a')).toBeNull();
  });
});
