// The tagger registry: built-in families plus taggers from users' own modules, looked up by name.
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deconTagger } from '../decon/tagger.js';
import { AssayError } from '../errors.js';
import { importModule } from '../import-module.js';
import { datatroveTaggers } from './taggers/datatrove/index.js';
import { dolmaTaggers } from './taggers/dolma/index.js';
import { fasttextTaggers } from './taggers/fasttext/index.js';
import { statsTaggers } from './taggers/stats/index.js';
import type { TaggerSpec } from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spec has its own options type
export type AnySpec = TaggerSpec<any>;

export const BUILTIN_FAMILIES: { family: string; taggers: readonly AnySpec[] }[] = [
  { family: 'Dolma', taggers: dolmaTaggers },
  { family: 'DataTrove / FineWeb', taggers: datatroveTaggers },
  { family: 'Language id and fastText', taggers: fasttextTaggers },
  { family: 'DataTrove statistics', taggers: statsTaggers },
  { family: 'Decontamination', taggers: [deconTagger] },
];

export class TaggerRegistry {
  readonly #specs = new Map<string, AnySpec>();

  constructor(specs: readonly AnySpec[] = BUILTIN_FAMILIES.flatMap((f) => f.taggers)) {
    for (const s of specs) this.add(s, 'built-in');
  }

  add(spec: AnySpec, origin: string): void {
    if (this.#specs.has(spec.name)) throw new AssayError('CONFIG', `tagger '${spec.name}' from ${origin} is already registered`, { field: 'tagger_modules' });
    this.#specs.set(spec.name, spec);
  }

  get(name: string): AnySpec {
    const spec = this.#specs.get(name);
    if (!spec) {
      const near = [...this.#specs.keys()].filter((n) => n.includes(name) || name.includes(n) || editDistance(n, name) <= 2).slice(0, 5);
      throw new AssayError('CONFIG', `unknown tagger '${name}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; \`assay list\` shows them all`, {
        field: 'taggers',
      });
    }
    return spec;
  }

  list(): AnySpec[] {
    return [...this.#specs.values()];
  }

  /**
   * Load taggers from a user's module (a path to .js/.mjs, or .ts through tsx): it exports a
   * TaggerSpec, an array of them, or `taggers`. Dolma's equivalent is `--tagger_modules`.
   */
  async loadModule(path: string, cwd: string): Promise<string[]> {
    const abs = isAbsolute(path) ? path : resolve(cwd, path);
    if (/\.(c|m)?tsx?$/.test(abs)) await registerTsx();
    let mod: Record<string, unknown>;
    try {
      mod = await importModule(pathToFileURL(abs).href);
    } catch (e) {
      throw new AssayError('CONFIG', `cannot load tagger module: ${(e as Error).message}`, { file: abs, cause: e });
    }
    const found = [mod.default, mod.taggers, ...Object.values(mod)].flatMap((v) => (Array.isArray(v) ? v : [v])).filter(isSpec);
    const unique = [...new Set(found)];
    if (unique.length === 0) throw new AssayError('CONFIG', 'module exports no tagger (an object with name, description, outputs and create())', { file: abs });
    for (const s of unique) this.add(s, abs);
    return unique.map((s) => s.name);
  }
}

function isSpec(v: unknown): v is AnySpec {
  const s = v as Partial<AnySpec> | null;
  return s !== null && typeof s === 'object' && typeof s.name === 'string' && typeof s.create === 'function' && Array.isArray(s.outputs);
}

let tsxRegistered = false;
async function registerTsx(): Promise<void> {
  if (tsxRegistered) return;
  try {
    const api = await importModule<{ register: () => unknown }>('tsx/esm/api');
    api.register();
    tsxRegistered = true;
  } catch (e) {
    throw new AssayError('CONFIG', `TypeScript tagger modules need the 'tsx' package: ${(e as Error).message}`, { field: 'tagger_modules' });
  }
}

/** Levenshtein distance, for "did you mean" suggestions on tagger names. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] ?? 0;
}
