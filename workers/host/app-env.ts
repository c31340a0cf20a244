// What `${oc.env:NAME}` reads in the app: only the names the workspace allows (.assay/settings.json); the CLI keeps Dolma's whole environment.
import { readSettings } from './settings.js';

/**
 * Variables the host process keeps for itself (the OS and Node need them); never offered to recipes.
 * Everything else (tokens, keys, passwords) leaves process.env when the host starts. SLURM_CONF names the
 * cluster the Slurm client tools talk to (a path, not a secret): Slurm jobs need it.
 */
const SYSTEM = /^(PATH|Path|HOME|USER|LOGNAME|SHELL|TMPDIR|TEMP|TMP|LANG|LANGUAGE|LC_[A-Z]+|TZ|SystemRoot|SYSTEMROOT|windir|ComSpec|PATHEXT|USERPROFILE|APPDATA|LOCALAPPDATA|PROGRAMDATA|XDG_[A-Z_]+|DISPLAY|WAYLAND_DISPLAY|NODE_ENV|SLURM_CONF)$/;

/** The system variables of `source` (what the host keeps): a Slurm job's sbatch needs PATH and SLURM_CONF to reach the cluster. */
export function systemEnv(source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(source)) if (v !== undefined && SYSTEM.test(name)) out[name] = v;
  return out;
}

/** The allowed subset of `source` (the host's original environment) for this workspace, read fresh so a settings change applies at once. */
export function allowedEnv(root: string, source: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readSettings(root).envAllowList) {
    const v = source[name];
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** Windows processes misbehave without these (crypto, DNS, shell lookups); elsewhere a job process needs no variable at all. */
const WINDOWS_ESSENTIALS = ['SystemRoot', 'SYSTEMROOT', 'windir', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP'];

/**
 * The environment of a job process, and the one its config is checked with on the host, so both resolve
 * it alike: the allowed variables, plus on Windows the few the OS needs.
 */
export function jobEnv(root: string, source: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const out: Record<string, string> = {};
  if (platform === 'win32') for (const n of WINDOWS_ESSENTIALS) if (source[n] !== undefined) out[n] = source[n] as string;
  return { ...out, ...allowedEnv(root, source) };
}

/** Values shorter than this are left alone: hiding `1` or `en` would garble messages and protect nothing. */
const MIN_REDACTED = 4;

/**
 * Replaces every allowed variable's value in a text by its `${oc.env:NAME}` form, so no error or log
 * line shows what a recipe interpolated (a FORBIDDEN path, a bad value echoed by a schema error).
 */
export function redactEnv(text: string, env: Record<string, string>): string {
  const pairs = Object.entries(env)
    .filter(([, v]) => v.length >= MIN_REDACTED)
    .sort((a, b) => b[1].length - a[1].length);
  let out = text;
  for (const [name, value] of pairs) out = out.split(value).join(`\${oc.env:${name}}`);
  return out;
}

/**
 * The host process's entry calls this once: it keeps the full environment privately (for the allowed
 * names) and leaves only system variables in process.env, so no code path that defaults to
 * process.env can interpolate a secret.
 */
export function takeEnvironment(proc: NodeJS.Process = process): NodeJS.ProcessEnv {
  const full = { ...proc.env };
  for (const name of Object.keys(proc.env)) if (!SYSTEM.test(name)) delete proc.env[name];
  return full;
}
