// Electron hardening that cannot run here (no binary): navigation refused for every frame, no devtools when packaged, fuses set in the packaging config, no reliance on ELECTRON_RUN_AS_NODE.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { appRoot } from './app-root.js';
import { APP_ORIGIN, lockDown } from './lockdown.js';
import { menuTemplate } from './menu.js';

type Handler = (event: { preventDefault(): void; url?: string; isMainFrame?: boolean }, url?: string) => void;

/** A stand-in for WebContents that records the handlers lockDown installs. */
function fakeContents(): { handlers: Map<string, Handler>; openHandler: () => unknown } {
  const handlers = new Map<string, Handler>();
  let openHandler: () => unknown = () => undefined;
  lockDown({
    on: ((name: string, h: Handler) => void handlers.set(name, h)) as never,
    setWindowOpenHandler: ((h: () => unknown) => void (openHandler = h)) as never,
  });
  return { handlers, openHandler: () => openHandler() };
}

function prevented(h: Handler | undefined, event: { url: string; isMainFrame?: boolean }, urlArg?: string): boolean {
  let stopped = false;
  h?.({ ...event, preventDefault: () => void (stopped = true) }, urlArg);
  return stopped;
}

const source = (path: string): string => readFileSync(join(appRoot(), path), 'utf8');

describe('Electron web contents', () => {
  it('refuses navigation of any frame away from the app, and any subframe navigation', () => {
    const { handlers, openHandler } = fakeContents();
    const frame = handlers.get('will-frame-navigate');
    expect(frame).toBeDefined();
    expect(prevented(frame, { url: 'https://evil.example/', isMainFrame: true })).toBe(true);
    expect(prevented(frame, { url: 'file:///etc/passwd', isMainFrame: true })).toBe(true);
    expect(prevented(frame, { url: `${APP_ORIGIN}/index.html`, isMainFrame: false })).toBe(true);
    expect(prevented(frame, { url: 'https://evil.example/', isMainFrame: false })).toBe(true);
    expect(prevented(frame, { url: `${APP_ORIGIN}/index.html`, isMainFrame: true })).toBe(false);
    expect(prevented(handlers.get('will-navigate'), { url: '' }, 'https://evil.example/')).toBe(true);
    expect(prevented(handlers.get('will-redirect'), { url: '' }, 'https://evil.example/')).toBe(true);
    expect(prevented(handlers.get('will-attach-webview'), { url: '' })).toBe(true);
    expect(openHandler()).toEqual({ action: 'deny' });
  });

  it('has no developer tools in the packaged menu, and keeps them for development builds', () => {
    const roles = (packaged: boolean): string[] =>
      JSON.parse(JSON.stringify(menuTemplate({ packaged, openFolder: () => undefined }), (k, v: unknown) => (k === 'click' ? undefined : v)))
        .flatMap((m: { role?: string; submenu?: { role?: string }[] }) => [m.role, ...(m.submenu ?? []).map((s) => s.role)])
        .filter((r: string | undefined): r is string => r !== undefined);
    expect(roles(true)).not.toContain('toggleDevTools');
    expect(roles(false)).toContain('toggleDevTools');
    const main = source('main/main.ts');
    expect(main).toMatch(/menuTemplate\(\{ packaged: app\.isPackaged\b/);
    expect(main).toMatch(/createWindow\(.*, \{ devTools: !app\.isPackaged \}\)/);
    expect(main).not.toMatch(/toggleDevTools|openDevTools/);
    expect(source('main/window.ts')).toMatch(/devTools: opts\.devTools/);
  });
});

describe('packaging config', () => {
  const config = parse(source('electron-builder.yml')) as { electronFuses?: Record<string, boolean>; asar?: unknown };

  it('sets Electron fuses: cookie encryption, ASAR integrity, app only from ASAR, no NODE_OPTIONS or inspector', () => {
    expect(config.electronFuses).toMatchObject({
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
    });
    // ASAR integrity means nothing without the archive.
    expect(config.asar).not.toBe(false);
  });

  it('turns runAsNode off: the shipped binary never runs as plain Node', () => {
    expect(config.electronFuses?.runAsNode).toBe(false);
  });
});

/**
 * Every source file the packaged app runs, from the bundles' entry points (scripts/build-app.mjs and the app's
 * entries of scripts/build-engine.mjs: the host, its preview worker, the job runner and the pool workers).
 */
async function appSources(): Promise<string[]> {
  const entryPoints = [
    'main/main.ts',
    'main/preload.ts',
    'workers/host/main.ts',
    'workers/host/preview-worker.ts',
    'workers/host/jobs/runner.ts',
    'workers/engine/mix/worker.ts',
    'workers/engine/tag/worker.ts',
    'workers/engine/tokenize/worker.ts',
    'workers/engine/mix/filters/jq/worker.ts',
    'workers/engine/index/build/worker.ts',
    'workers/engine/index/search/worker.ts',
  ];
  const r = await build({ absWorkingDir: appRoot(), entryPoints, bundle: true, write: false, metafile: true, outdir: 'out-check', platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
  return Object.keys(r.metafile.inputs).filter((f) => !f.startsWith('node_modules/'));
}

describe('code the packaged app runs', () => {
  it('never relies on ELECTRON_RUN_AS_NODE, and forks Node only where it cannot be inside Electron', { timeout: 60_000 }, async () => {
    const files = await appSources();
    // The graph really is the app's: main, the host, the job launcher and runner, the pool.
    expect(files).toEqual(expect.arrayContaining(['main/main.ts', 'main/utility-host.ts', 'main/job-launcher.ts', 'workers/host/jobs/manager.ts', 'workers/host/jobs/launch-channel.ts', 'workers/engine/jobs/pool.ts']));
    expect(files.filter((f) => source(f).includes('ELECTRON_RUN_AS_NODE'))).toEqual([]);
    // With the fuse off a fork inside Electron would start the app itself. What may fork is each guarded:
    // the pool (threads inside Electron), the job manager's fork launcher (refuses inside Electron; a utility
    // process gets main's launcher) and forkHost (development runs only: a packaged app hosts in a utility process).
    const forking = files.filter((f) => /from 'node:child_process'/.test(source(f).replace(/import type [^;]*;/g, '')));
    // The Slurm client (a job on Slurm runs sbatch, squeue and scancel) starts those binaries, never Node.
    expect(forking.sort()).toEqual(['workers/engine/executor/slurm.ts', 'workers/engine/jobs/pool-child.ts', 'workers/host/jobs/launch.ts', 'workers/host/launch-process.ts']);
    expect(source('workers/engine/executor/slurm.ts')).toMatch(/^import \{ execFile \} from 'node:child_process';$/m);
    expect(source('workers/engine/jobs/pool-child.ts')).toMatch(/if \(versions\.electron !== undefined\) return 'threads';/);
    expect(source('workers/host/jobs/launch.ts')).toMatch(/if \(process\.versions\.electron !== undefined\) throw new Error\('jobs cannot be forked inside Electron/);
    expect(source('workers/host/jobs/manager.ts')).toMatch(/if \(!port\) return forkLauncher;/);
    expect(source('main/main.ts')).toMatch(/if \(app\.isPackaged\) return utilityHost\(hostScript, workspace\);\n\s*return forkHost\(/);
    // Main launches the host's jobs: the relay is wired to the host process and handles its messages first.
    const host = source('main/utility-host.ts');
    expect(host).toMatch(/runnerScript: join\(dirname\(hostScript\), 'job-runner\.js'\)/);
    expect(host).toMatch(/fork: \(modulePath, args, opts\) => utilityProcess\.fork\(modulePath, args, opts\)/);
    expect(host).toMatch(/!jobs\.handle\(m\) && listeners\.emit\(m\)/);
    expect(host).toMatch(/jobs\.hostExited\(\)/);
  });
});
