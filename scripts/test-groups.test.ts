// Every test file that reads the clock is placed: in the timed group (run alone) or named as not bounding a duration.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../workers/engine/testing.js';
import { CLOCK_READING, TIMED_TESTS, UNTIMED_CLOCK_READERS } from './test-groups.js';

const ROOTS = ['shared', 'workers', 'bench', 'scripts', 'configs', 'renderer', 'main', 'e2e', 'reliability'];

function testFiles(): string[] {
  const under = (root: string): string[] => readdirSync(join(REPO_ROOT, root), { recursive: true, encoding: 'utf8' }).map((f) => `${root}/${f}`);
  return ROOTS.flatMap(under).filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules')).sort();
}

describe('test groups', () => {
  it('every test file that reads the clock is in the timed group or named as untimed', () => {
    const unplaced = testFiles().filter((f) => f !== 'scripts/test-groups.test.ts' && CLOCK_READING.test(readFileSync(join(REPO_ROOT, f), 'utf8')) && !TIMED_TESTS.includes(f) && !(f in UNTIMED_CLOCK_READERS));
    expect(unplaced, 'add each to scripts/test-groups.ts').toEqual([]);
  });

  it('names only test files that exist', () => {
    for (const f of [...TIMED_TESTS, ...Object.keys(UNTIMED_CLOCK_READERS)]) expect(existsSync(join(REPO_ROOT, f)), f).toBe(true);
  });

  it('the check sees a file that bounds a duration', () => {
    expect(CLOCK_READING.test('const t = performance.now();\nexpect(performance.now() - t).toBeLessThan(50);')).toBe(true);
    expect(CLOCK_READING.test('expect(growthRatio(make, run)).toBeLessThan(3);')).toBe(true);
    expect(CLOCK_READING.test("expect(rate).toBeLessThan(P * 1.2);")).toBe(false);
  });
});
