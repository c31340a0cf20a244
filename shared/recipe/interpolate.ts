// OmegaConf-style `${resolver:args}` interpolation, as Dolma resolves configs before running them.

export interface InterpolationContext {
  /** Environment variables for `${oc.env:NAME[,default]}`. */
  env: Readonly<Record<string, string | undefined>>;
  /** CPU count for Dolma's `${d.processes:n}` = max(1, cpus − n). */
  cpuCount: number;
}

export class InterpolationError extends Error {
  override readonly name = 'InterpolationError';
}

const WHOLE = /^\$\{([^{}]*)\}$/;
const ANY = /\$\{([^{}]*)\}/g;

/** Resolve one string value; a value that is exactly one interpolation keeps the resolver's type. */
export function interpolateString(value: string, ctx: InterpolationContext): string | number {
  if (!value.includes('${')) return value;
  const whole = WHOLE.exec(value);
  if (whole) return resolve(whole[1] ?? '', ctx);
  return value.replace(ANY, (_m, body: string) => String(resolve(body, ctx)));
}

function resolve(body: string, ctx: InterpolationContext): string | number {
  const colon = body.indexOf(':');
  const name = (colon < 0 ? body : body.slice(0, colon)).trim();
  const args = colon < 0 ? '' : body.slice(colon + 1);
  switch (name) {
    case 'oc.env': {
      const comma = args.indexOf(',');
      const key = (comma < 0 ? args : args.slice(0, comma)).trim();
      const value = ctx.env[key];
      if (value !== undefined) return value;
      if (comma >= 0) return stripQuotes(args.slice(comma + 1).trim());
      throw new InterpolationError(`Environment variable '${key}' not found (\${oc.env:${key}})`);
    }
    case 'd.processes': {
      const n = Number(args.trim() || '0');
      if (!Number.isInteger(n)) throw new InterpolationError(`\${d.processes:${args}} needs an integer`);
      return Math.max(1, ctx.cpuCount - n);
    }
    default:
      if (colon < 0 && !name.includes('.')) {
        throw new InterpolationError(`\${${body}}: references to other config keys are not supported`);
      }
      throw new InterpolationError(`unsupported resolver '${name}' in \${${body}}`);
  }
}

function stripQuotes(s: string): string {
  if (s.length >= 2 && (s[0] === "'" || s[0] === '"') && s[s.length - 1] === s[0]) return s.slice(1, -1);
  return s;
}

/** Walk a parsed config and resolve every string; `onError` gets the failing key path. */
export function interpolateTree(
  node: unknown,
  ctx: InterpolationContext,
  onError: (path: (string | number)[], message: string) => void,
  path: (string | number)[] = [],
): unknown {
  if (typeof node === 'string') {
    try {
      return interpolateString(node, ctx);
    } catch (e) {
      onError(path, e instanceof Error ? e.message : String(e));
      return node;
    }
  }
  if (Array.isArray(node)) return node.map((v, i) => interpolateTree(v, ctx, onError, [...path, i]));
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = interpolateTree(v, ctx, onError, [...path, k]);
    return out;
  }
  return node;
}
