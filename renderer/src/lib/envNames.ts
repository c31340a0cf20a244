// The env allow-list as the settings dialog edits it: free text in, valid variable names (and the invalid ones) out.

/** What `settings.set` accepts as a name (shared/contract/methods.ts). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names from free text (one per line, or separated by commas or blanks), deduplicated in order; the invalid apart. */
export function parseEnvNames(text: string): { names: string[]; invalid: string[] } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  return { names: [...new Set(parts.filter((p) => NAME.test(p)))], invalid: parts.filter((p) => !NAME.test(p)) };
}
