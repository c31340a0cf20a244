// Compiles the optional C addon (native/*.c → native/build/assay_native.node) with the system's C compiler.
// Assay runs without it (its JavaScript gives the same results, more slowly), so a machine with no
// compiler or no Node headers gets a message, not a failed install, unless ASSAY_REQUIRE_NATIVE=1 (CI) asks for it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'native');
const sources = readdirSync(dir).filter((f) => f.endsWith('.c')).sort().map((f) => join(dir, f));
const newest = Math.max(...readdirSync(dir).filter((f) => /\.[ch]$/.test(f)).map((f) => statSync(join(dir, f)).mtimeMs));
const out = join(root, 'native', 'build', 'assay_native.node');
const required = process.env.ASSAY_REQUIRE_NATIVE === '1';

/** Ends the script: an error when the addon is required, a note otherwise. */
function skip(why) {
  const message = `build-native: ${why}; Assay will use its JavaScript instead (same results, slower).`;
  if (required) {
    console.error(`${message}\nASSAY_REQUIRE_NATIVE=1: failing.`);
    process.exit(1);
  }
  console.warn(message);
  process.exit(0);
}

if (process.platform !== 'linux' && process.platform !== 'darwin') skip(`no build recipe for ${process.platform}`);
if (!process.argv.includes('--force') && existsSync(out) && statSync(out).mtimeMs >= newest) process.exit(0);

// Node's own headers: beside the running binary (official builds, Debian's libnode-dev), or npm's nodedir.
const prefixes = [...new Set([dirname(dirname(process.execPath)), process.config.variables.node_prefix, process.env.npm_config_nodedir].filter(Boolean))];
const include = prefixes.map((p) => join(p, 'include', 'node')).find((d) => existsSync(join(d, 'node_api.h')));
if (include === undefined) skip(`node_api.h not found under ${prefixes.map((p) => join(p, 'include', 'node')).join(' or ')}`);

const cc = process.env.CC || 'cc';
mkdirSync(join(root, 'native', 'build'), { recursive: true });
const tmp = `${out}.${process.pid}.tmp`;
// No -ffast-math: the sums must round exactly as fastText's float32 additions do.
const args = ['-O2', '-std=c11', '-fPIC', '-shared', '-fvisibility=hidden', '-Wall', '-Wextra', '-Werror', `-I${include}`, '-o', tmp, ...sources];
if (process.platform === 'darwin') args.push('-undefined', 'dynamic_lookup');
const r = spawnSync(cc, args, { encoding: 'utf8' });
if (r.error !== undefined || r.status !== 0) {
  rmSync(tmp, { force: true });
  skip(`${cc} could not compile native/*.c${r.error ? ` (${r.error.message})` : `:\n${r.stderr}`}`);
}
// A rename, so that a process loading the addon meanwhile sees the old file or the new one.
renameSync(tmp, out);
console.log(`build-native: ${out.slice(root.length)}`);
