import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FilterCompileError, FilterEvalError } from '../types.js';
import { compileJqRule, compileJqSelector, disposeJq } from './index.js';
import { JqRunner } from './runner.js';

afterAll(() => disposeJq());

const BUDGET = 500;

describe('time budget', () => {
  it.each(['def f: f; f', '[range(1e10)] | length', 'until(false; .)', 'repeat(.)', '[limit(1e9; repeat(1))] | length'])(
    '%j times out cleanly and the next evaluation works',
    (expr) => {
      const rule = compileJqRule(expr, 'include', { timeoutMs: BUDGET });
      const t = performance.now();
      let err: unknown;
      try {
        rule.evaluate([{ a: 1 }, { a: 2 }]);
      } catch (e) {
        err = e;
      }
      const took = performance.now() - t;
      expect(err).toBeInstanceOf(FilterEvalError);
      expect((err as FilterEvalError).message).toMatch(/exceeded its time budget of 500 ms/);
      expect((err as FilterEvalError).index).toBe(0);
      expect(took).toBeGreaterThanOrEqual(BUDGET - 5);
      expect(took).toBeLessThan(BUDGET + 3000);
      expect(compileJqRule('.a == 2', 'include').evaluate([{ a: 1 }, { a: 2 }])).toEqual([false, true]);
    },
  );

  it('a selector times out the same way', () => {
    expect(() => compileJqSelector('[repeat(1)]', { timeoutMs: BUDGET }).select([null])).toThrow(/time budget/);
    expect(compileJqSelector('.x').select([{ x: 1 }])).toEqual([1]);
  });
});

describe('hostile programs', () => {
  it.each(['input', '[inputs]', 'env.PATH', '$ENV', '$__loc__', 'halt_error', 'input_filename', 'get_search_list', 'import "x" as x; .', '"\\(env)"'])(
    'rejects %j at compile time',
    (expr) => {
      expect(() => compileJqRule(expr, 'include')).toThrow(FilterCompileError);
    },
  );

  it('treats JavaScript-looking names as plain JSON keys', () => {
    const docs = JSON.parse('[{"__proto__": {"x": 1}, "constructor": 2}, {}]') as [];
    expect(compileJqSelector('"\\(.constructor)"').select(docs)).toEqual(['2', 'null']);
    expect(compileJqSelector('.__proto__').select(docs)).toEqual([{ x: 1 }, null]);
    expect(compileJqSelector('.["__proto__"]?.x?').select(docs)).toEqual([1, null]);
  });

  it('cannot see other documents of its batch', () => {
    expect(compileJqSelector('[.]').select([1, 2, 3])).toEqual([[1], [2], [3]]);
  });
});

describe('JqRunner', () => {
  it('replaces an interpreter that ran out of its memory budget', () => {
    const runner = new JqRunner(64 * 1024 * 1024);
    try {
      const r = runner.run('[range(1e9)] | length', 'null', 20_000);
      expect(r.kind).toBe('fatal');
      expect(runner.alive).toBe(false);
      expect(runner.run('1 + 1', 'null', 5000)).toEqual({ kind: 'ok', stdout: '2' });
    } finally {
      runner.dispose();
    }
  });

  it('reports jq’s compile errors with their exit code', () => {
    const runner = new JqRunner();
    try {
      const r = runner.run('.x | sum', 'null', 5000);
      expect(r).toMatchObject({ kind: 'jq-error', exitCode: 3 });
      expect(r.kind === 'jq-error' && r.stderr).toMatch(/sum\/0 is not defined/);
    } finally {
      runner.dispose();
    }
  });

  it('disposeJq() stops the shared worker; compiled rules keep working afterwards', () => {
    const rule = compileJqRule('.a', 'include');
    disposeJq();
    expect(rule.evaluate([{ a: 1 }, { a: 0 }])).toEqual([true, false]);
  });

  it('never keeps the process alive (the worker is unref’d)', () => {
    const index = fileURLToPath(new URL('./index.ts', import.meta.url));
    const script = `const { compileJqRule } = await import(${JSON.stringify(index)}); console.log(JSON.stringify(compileJqRule('.a > 1', 'include').evaluate([{ a: 2 }])));`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('[true]');
  });
});
