// `npm start`: build what is missing or stale, build the demo workspace on first start, then open the Electron app — or,
// where Electron's binary cannot be had (no download, no display), browser mode (`assay serve`) with the reason why.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (m) => process.stderr.write(`start: ${m}\n`);

function parse(argv) {
  const o = { workspace: undefined, browser: false, open: true, port: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--workspace' || a === '-w') o.workspace = argv[++i];
    else if (a === '--browser') o.browser = true;
    else if (a === '--no-open') o.open = false;
    else if (a === '--port') o.port = argv[++i];
    else throw new Error(`unknown option '${a}' (options: --workspace DIR, --browser, --no-open, --port N)`);
  }
  return o;
}

/** Newest modification time of the files below `dirs` (skipping tests), to tell whether a bundle is stale. */
function newest(dirs) {
  let t = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|css|html|json)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) t = Math.max(t, statSync(p).mtimeMs);
    }
  };
  for (const d of dirs) if (existsSync(join(root, d))) walk(join(root, d));
  return t;
}

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function run(cmd, args, what) {
  say(what);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  return r.status === 0;
}

function buildIfNeeded() {
  const bundles = ['cli', 'serve', 'host', 'job-runner'].map((n) => join(root, 'dist/engine', `${n}.js`));
  const engineSrc = newest(['shared', 'workers', 'main']);
  // The C addon rebuilds itself when native/ changed (and only explains, never fails, where it cannot be built).
  run(process.execPath, ['scripts/build-native.mjs'], 'checking the C addon…');
  if (bundles.some((b) => mtime(b) < engineSrc) && !run(process.execPath, ['scripts/build-engine.mjs'], 'building the engine, host and server…')) throw new Error('the engine build failed');
  const page = join(root, 'dist/renderer/index.html');
  if (existsSync(join(root, 'renderer/vite.config.ts')) && mtime(page) < newest(['renderer', 'shared'])) {
    const vite = join(root, 'node_modules/vite/bin/vite.js');
    if (!run(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], 'building the app (Vite)…')) say('the app build failed; the server will say so in the browser');
  }
}

/** The demo lives in work/demo (git-ignored); a folder without its completion marker is an interrupted build and is redone. */
function demoWorkspace() {
  const dir = resolve(root, process.env.ASSAY_DEMO_DIR ?? 'work/demo');
  if (existsSync(join(dir, '.assay/demo.json'))) return dir;
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  if (!run(process.execPath, ['bin/assay.js', 'demo', '--out', dir], `building the demo workspace in ${dir} (first start only)…`)) throw new Error('the demo build failed');
  return dir;
}

function electronBinary() {
  const dir = join(root, 'node_modules/electron');
  const found = () => {
    const rel = existsSync(join(dir, 'path.txt')) ? readFileSync(join(dir, 'path.txt'), 'utf8').trim() : '';
    return rel && existsSync(join(dir, 'dist', rel)) ? join(dir, 'dist', rel) : undefined;
  };
  if (!existsSync(dir)) return { reason: 'the electron package is not installed' };
  let bin = found();
  if (!bin) {
    say("Electron's binary is missing; trying to download it once (install-electron)…");
    const r = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    bin = found();
    if (!bin) {
      const why = `${r.stderr ?? ''}${r.error?.message ?? ''}`.split('\n').find((l) => /error|ENOTFOUND|EAI_AGAIN|ETIMEDOUT/i.test(l)) ?? `exit code ${r.status}`;
      return { reason: `Electron's binary is not installed and could not be downloaded (${why.trim()})` };
    }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { reason: 'there is no display (DISPLAY/WAYLAND_DISPLAY unset) to show a window on' };
  return { bin };
}

try {
  const opts = parse(process.argv.slice(2));
  buildIfNeeded();
  const workspace = opts.workspace ? resolve(opts.workspace) : demoWorkspace();
  const electron = opts.browser ? { reason: '--browser was given' } : electronBinary();
  let child;
  if (electron.bin) {
    if (!run(process.execPath, ['scripts/build-app.mjs'], 'building the Electron main process…')) throw new Error('the Electron build failed');
    say(`opening the app on ${workspace}`);
    // The engine host runs in this Node in development: native modules were compiled for it, not for Electron.
    child = spawn(electron.bin, [join(root, 'out/main.js'), '--workspace', workspace], { cwd: root, stdio: 'inherit', env: { ...process.env, ASSAY_NODE: process.execPath } });
  } else {
    say(`opening browser mode instead of the desktop app: ${electron.reason}.`);
    const args = ['bin/assay.js', 'serve', '--workspace', workspace, ...(opts.open ? [] : ['--no-open']), ...(opts.port ? ['--port', opts.port] : [])];
    child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  }
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
} catch (e) {
  say(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
