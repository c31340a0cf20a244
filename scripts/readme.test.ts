// Every command the README shows runs verbatim from the folder it names: set-up, `npm link`, the FineWeb chain, every bench command.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../workers/engine/cli/run-cli.js';
import { readJsonlFile, REPO_ROOT, scratchDir } from '../workers/engine/testing.js';
import { linkedEnv, userDataset } from '../e2e/user-data.js';
import { benchCommands, commandBlocks, joinCommands, type CommandBlock } from './readme-commands.js';

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const blocks = commandBlocks(README);

function sh(command: string, cwd: string, env: NodeJS.ProcessEnv, timeout = 180_000): { code: number; out: string } {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', command], { cwd, env, encoding: 'utf8', timeout });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ''}` };
}

function shAsync(command: string, cwd: string, env: NodeJS.ProcessEnv, timeout: number): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, out });
    });
  });
}

describe('README commands', () => {
  it('finds the shell blocks and joins their continuations', () => {
    expect(joinCommands(['a --x 1 \\', "  --y '#not a comment'   # a comment", '', '# only a comment', 'b'])).toEqual(["a --x 1 --y '#not a comment'", 'b']);
    expect(() => commandBlocks('text\n```sh\nls\n```\n')).toThrow(/run-from/);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it('CI runs exactly the set-up and test commands the README gives', () => {
    const setup = blocks[0] as CommandBlock;
    expect(setup.commands).toEqual(['npm ci && npm start', 'npm test']);
    const ci = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b.*$/m);
    expect(ci.trimEnd().split('\n').at(-1)).toBe('npm test');
  });

  it('`npm start` opens browser mode on the demo where Electron cannot run, and serves the workbench', async () => {
    const dir = scratchDir('assay-readme-start-');
    const env = { ...linkedEnv(dir), ASSAY_DEMO_DIR: join(dir, 'demo'), DISPLAY: '', WAYLAND_DISPLAY: '' };
    const child = spawn('bash', ['-c', 'exec npm start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`npm start printed no URL within 150 s:\n${out}`)), 150_000);
      const onData = (b: Buffer): void => {
        out += b.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
        if (m) {
          clearTimeout(timer);
          done(m[0]);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => fail(new Error(`npm start exited (${code}) before serving:\n${out}`)));
    });
    try {
      expect(out).toMatch(/opening browser mode instead of the desktop app: .+/);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
      expect(existsSync(join(dir, 'demo/.assay/demo.json'))).toBe(true);
    } finally {
      process.kill(-(child.pid as number), 'SIGTERM');
    }
  }, 200_000);

  it('the FineWeb chain runs verbatim from the folder holding dataset/, with `assay` put on the PATH by `npm link`', () => {
    ensureBuilt();
    const dir = scratchDir('assay-readme-chain-');
    const env = linkedEnv(dir);
    const link = blocks.find((b) => b.commands.includes('npm link'));
    expect(link?.from).toBe('repo');
    const linked = sh('npm link', REPO_ROOT, env);
    expect(linked.code, linked.out).toBe(0);
    const docs = userDataset(dir).length;
    expect(docs).toBeGreaterThan(20);
    const chain = blocks.filter((b) => b.from === 'data');
    expect(chain.length).toBeGreaterThan(0);
    const outputs: string[] = [];
    for (const block of chain) {
      for (const command of block.commands) {
        const r = sh(command, dir, env);
        expect(r.code, `README.md:${block.line}: ${command}\n${r.out}`).toBe(0);
        outputs.push(r.out);
      }
    }
    // preview = run: the kept count the preview printed is what the mix wrote.
    const preview = outputs.find((o) => /kept [\d,]+ \(/.test(o));
    const kept = Number(/kept ([\d,]+) \(/.exec(preview ?? '')?.[1]?.replace(/,/g, '') ?? NaN);
    const outDir = join(dir, 'output/fineweb');
    const written = readdirSync(outDir).filter((f) => /\.jsonl?\.gz$/.test(f)).flatMap((f) => readJsonlFile(join(outDir, f)));
    expect(written.length).toBe(kept);
    expect(readdirSync(join(dir, 'tokens')).some((f) => f.endsWith('.npy'))).toBe(true);
  }, 400_000);

  it('every bench command in the README runs (on smoke-sized data, two at a time)', async () => {
    const commands = benchCommands(README);
    expect(commands.length).toBeGreaterThanOrEqual(5);
    // `npx vitest run PATH` names tests this very suite runs: check they are included instead of running them twice.
    const suite = readFileSync(join(REPO_ROOT, 'vitest.config.ts'), 'utf8');
    for (const c of commands.filter((c) => c.startsWith('npx vitest run '))) {
      const path = c.slice('npx vitest run '.length).trim();
      expect(existsSync(join(REPO_ROOT, path)), c).toBe(true);
      expect(suite).toContain(`'${path.split('/')[0]}/**/*.test.ts'`);
    }
    const env = { ...process.env, ASSAY_BENCH_SMOKE: '1' };
    const queue = commands.filter((c) => !c.startsWith('npx vitest run '));
    const failures: string[] = [];
    const worker = async (): Promise<void> => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
        const r = await shAsync(c, REPO_ROOT, env, 300_000);
        if (r.code !== 0) failures.push(`${c} exited ${r.code}\n${r.out.slice(-3000)}`);
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
  }, 900_000);
});
