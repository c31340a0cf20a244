// Load a mixer recipe file (YAML or JSON) into a validated config, or a CONFIG error naming file, line and field.
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { parseRecipe, type RecipeIssue } from '../../../shared/recipe/load.js';
import type { MixerConfig } from '../../../shared/recipe/schema.js';
import { AssayError } from '../errors.js';

export class RecipeError extends AssayError {
  constructor(
    readonly path: string,
    readonly issues: RecipeIssue[],
  ) {
    const first = issues[0];
    super('CONFIG', issues.map((i) => `${i.field}: ${i.message}`).join('\n'), { file: path, line: first?.line, field: first?.field });
    // One line per issue, each located, so an editor can jump to every one of them.
    this.message = issues.map((i) => `${path}${i.line !== undefined ? `:${i.line}` : ''}: ${i.field}: ${i.message}`).join('\n');
  }
}

export function parseMixerConfig(text: string, path: string, env: NodeJS.ProcessEnv = process.env): MixerConfig {
  const result = parseRecipe(text, { env, cpuCount: cpus().length });
  if (!result.ok) throw new RecipeError(path, result.issues);
  return result.config;
}

export async function loadMixerConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<MixerConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new AssayError('CONFIG', `cannot read config: ${(e as Error).message}`, { file: path });
  }
  return parseMixerConfig(text, path, env);
}
