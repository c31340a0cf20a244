// Config as recorded in a manifest: secrets redacted by key name, canonical JSON, and its sha256.
import { createHash } from 'node:crypto';

export const REDACTED = '[REDACTED]';

/**
 * A key names a secret when its last words (split on `_` `-` `.` and camelCase) are one of these nouns:
 * `password`, `passwd`, `secret`, `token`, `credential(s)`, `auth`, `authorization`, `cookie`, or the pairs
 * `api key`, `access key (id)`, `private key`, `secret key`, `session key`. Only the end counts, so
 * `eos_token_id`, `bos_token_id`, `max_tokens`, `tokenizer` and `token_count` stay readable while `hf_token`,
 * `aws_secret_access_key` and `apiKey` are hidden.
 */
const SECRET_TAIL = /(?:^|_)(?:password|passwd|secret|token|credentials?|auth|authorization|cookie|(?:api|access|private|secret|session)_key(?:_id)?)$/;

export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[-.\s]+/g, '_');
  return SECRET_TAIL.test(words);
}

/** `scheme://user:password@host` in any string value loses its password too. */
const URL_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:)[^/\s@]+@/gi;

/** A deep copy with secret values replaced by `[REDACTED]`; functions, undefined and signals are dropped (JSON's view). */
export function redactConfig(config: unknown): { config: unknown; redacted: string[] } {
  const redacted: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v === 'string') return v.replace(URL_PASSWORD, `$1${REDACTED}@`);
    if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'bigint' ? undefined : v;
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`) ?? null);
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return walk(JSON.parse(JSON.stringify(v)) as unknown, path);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const p = path === '' ? k : `${path}.${k}`;
      if (x === undefined || typeof x === 'function' || x instanceof AbortSignal) continue;
      if (isSecretKey(k) && x !== null && typeof x !== 'boolean') {
        redacted.push(p);
        out[k] = REDACTED;
        continue;
      }
      const w = walk(x, p);
      if (w !== undefined) out[k] = w;
    }
    return out;
  };
  return { config: walk(config, '') ?? null, redacted };
}

/** JSON with object keys sorted at every level (arrays keep their order): equal values, equal text. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x)).join(',')}]`;
  const keys = Object.keys(v as Record<string, unknown>)
    .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
