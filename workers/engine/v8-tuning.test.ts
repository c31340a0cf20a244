// tuneV8 sets V8's interrupt budget (functions are optimized later, or not at all in a short run); ASSAY_V8_BUDGET overrides it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './testing.js';
import { budgetFrom, INTERRUPT_BUDGET } from './v8-tuning.js';

describe('budgetFrom', () => {
  it("is INTERRUPT_BUDGET unless ASSAY_V8_BUDGET names one; 'default' leaves V8's", () => {
    expect(budgetFrom({})).toBe(INTERRUPT_BUDGET);
    expect(budgetFrom({ ASSAY_V8_BUDGET: '' })).toBe(INTERRUPT_BUDGET);
    expect(budgetFrom({ ASSAY_V8_BUDGET: '135168' })).toBe(135168);
    expect(budgetFrom({ ASSAY_V8_BUDGET: 'default' })).toBeNull();
  });

  it('refuses anything else, naming the variable', () => {
    for (const v of ['0', '999', '1e6', '-5000', '500000 ', '1000000000', 'off']) {
      expect(() => budgetFrom({ ASSAY_V8_BUDGET: v })).toThrow(`ASSAY_V8_BUDGET: must be a number of bytes from 1000 to 999999999, or 'default'; not '${v}'`);
    }
  });
});

describe('tuneV8', () => {
  /** Whether V8 optimizes a small hot function in a fresh Node after tuneV8 under `budget` (--trace-opt says so). */
  const optimizes = (budget: string): boolean => {
    const mod = pathToFileURL(join(REPO_ROOT, 'workers/engine/v8-tuning.ts')).href;
    const script = `const { tuneV8 } = await import(${JSON.stringify(mod)}); tuneV8();
function hot(x) { let s = 0; for (let i = 0; i < 50; i++) s += (i * x) % 7; return s; }
let t = 0; for (let k = 0; k < 4000; k++) t += hot(k); console.log(t);`;
    const r = spawnSync(process.execPath, ['--trace-opt', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ASSAY_V8_BUDGET: budget } });
    expect(r.status, r.stderr).toBe(0);
    return /completed (compiling|optimizing).*\bhot\b/.test(r.stdout);
  };

  it("sets V8's budget: a function hot for 200,000 loop turns is optimized under V8's own and the default, never under the largest", () => {
    expect(optimizes('default')).toBe(true);
    expect(optimizes('')).toBe(true);
    expect(optimizes('999999999')).toBe(false);
  });
});
