// Hostile recipe text through the CLI: deep nesting, oversized files, alias bombs and unresolved aliases are CONFIG errors (exit 2) with file:line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../workers/engine/cli/run-cli.js';
import { tempDir } from '../workers/engine/testing.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir('assay-yaml-'));
  ensureBuilt();
});
afterAll(() => cleanup());

const streams = 'streams:\n  - name: s\n    documents: [d/*.gz]\n    output: {path: o}\n    filter: {include: ["$.id"]}\n';
const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefgh'.split('').map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`), streams].join('\n');

describe('assay mix -c on hostile YAML', () => {
  it.each([
    ['100,000 [', '['.repeat(100_000), 1, /nests deeper than 64 levels/],
    ['deep block nesting', `${streams}x:\n${Array.from({ length: 100 }, (_, i) => `${' '.repeat(2 * i + 2)}k${i}:`).join('\n')}\n`, 70, /nests deeper than 64 levels/],
    ['an unresolved alias', `${streams}processes: *nope\n`, 6, /unresolved alias \*nope/],
    ['an alias bomb', bomb, 4, /alias bomb/],
    ['an oversized recipe', `${streams}x: "${'y'.repeat(1_100_000)}"\n`, 6, /the limit is 1,048,576/],
  ])('%s: exit 2, file:line, no stack trace', (_what, text, line, message) => {
    const path = join(dir, `${line}-${text.length}.yaml`);
    writeFileSync(path, text);
    const r = runCli(['mix', '-c', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(`${path}:${line}:`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
