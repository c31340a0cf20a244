// The Node versions Assay says it supports are true: every installed package accepts them, and README and CI agree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../workers/engine/testing.js';
import { satisfies } from './node-range.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: unknown; dev?: boolean; optional?: boolean }> };

/** The lowest release of each supported line, and the newest we name, must pass every package's engines. */
const SUPPORTED = ['20.19.0', '20.20.2', '22.13.0', '24.0.0', '26.0.0'];
const UNSUPPORTED = ['18.20.0', '20.18.0', '22.12.0', '23.6.0', '27.0.0'];

describe('supported Node versions', () => {
  it('parses npm ranges as npm does', () => {
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.18.9', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('22.12.0', '>= 22.12.0')).toBe(true);
    expect(satisfies('26.1.0', '20.x || 22.x || 23.x || 24.x || 25.x || 26.x')).toBe(true);
    expect(satisfies('27.0.0', '20.x || 22.x || 23.x || 24.x || 25.x || 26.x')).toBe(false);
    expect(satisfies('7.1.0', '>=6 <7 || >=8')).toBe(false);
    expect(satisfies('0.3.0', '^0.2.1')).toBe(false);
  });

  it('package.json engines names exactly the versions every locked package accepts', () => {
    const refusing: string[] = [];
    for (const [name, p] of Object.entries(lock.packages)) {
      const e = p.engines;
      const range = typeof e === 'object' && e !== null && !Array.isArray(e) ? (e as { node?: string }).node : undefined;
      if (range === undefined) continue;
      for (const v of SUPPORTED) if (!satisfies(v, range)) refusing.push(`${name || '(root)'} (${range}) refuses Node ${v}`);
    }
    expect(refusing).toEqual([]);
    for (const v of SUPPORTED) expect(satisfies(v, pkg.engines.node), v).toBe(true);
    for (const v of UNSUPPORTED) expect(satisfies(v, pkg.engines.node), v).toBe(false);
    expect(satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it('README and CI say the same', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('Node 20.19+, 22.13+ or 24–26');
    // npm refuses an unsupported Node (or a package that would refuse ours) instead of warning.
    expect(readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8')).toMatch(/npm ci --engine-strict/);
  });
});
