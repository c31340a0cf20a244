// `npm link` is the supported way to put `assay` on the PATH: the linked bin runs from any folder and finds its bundles and presets.
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, scratchDir, writeJsonl } from '../testing.js';
import { ensureBuilt } from './run-cli.js';

beforeAll(() => ensureBuilt());

describe('npm link', () => {
  it('links bin/assay.js into a prefix (no global state touched); it works through the symlink from another folder', { timeout: 120_000 }, () => {
    const prefix = scratchDir();
    const lock = readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8');
    // npm's link target is its global prefix; pointing that at a temporary folder keeps the machine's untouched.
    const link = spawnSync('npm', ['link', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: REPO_ROOT,
      env: { ...process.env, npm_config_prefix: prefix },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(link.status, link.stderr).toBe(0);
    expect(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')).toBe(lock);
    const bin = join(prefix, 'bin', 'assay');
    expect(realpathSync(bin)).toBe(join(realpathSync(REPO_ROOT), 'bin', 'assay.js'));
    const elsewhere = scratchDir();
    const run = (args: string[]) => spawnSync(bin, args, { cwd: elsewhere, encoding: 'utf8', timeout: 60_000 });
    const help = run(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^assay — Dolma-compatible corpus curation/);
    expect(run(['serve', '--help']).stdout).toMatch(/serve/);
    // The bundles find the shipped presets from there too.
    writeJsonl(join(elsewhere, 'dataset/documents/a.jsonl.gz'), [{ id: 'a', text: 'x' }]);
    const init = run(['init', 'fineweb', '--workspace', 'dataset']);
    expect(init.status, init.stderr).toBe(0);
    expect(readFileSync(join(elsewhere, 'configs/fineweb.yaml'), 'utf8')).toContain('- dataset/documents/*.jsonl.gz');
  });
});
