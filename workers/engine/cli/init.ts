// `assay init NAME [--workspace DIR] [--force]`: writes a starter config into the working directory, its paths right for DIR.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AssayError } from '../errors.js';
import { indexPath, PreviewEngine } from '../index/index.js';
import { listTemplates, renderTemplate, type TemplateContext } from '../templates/index.js';
import { stringOption, UsageError, type ParsedArgs } from './args.js';

/** The workspace's attribute catalogue when it has an index (the `starter` recipe is built from it), else none. */
function catalogueOf(workspace: string): TemplateContext['catalogue'] {
  if (!existsSync(indexPath(workspace))) return [];
  const engine = PreviewEngine.open(workspace);
  try {
    return engine.catalogue();
  } finally {
    engine.close();
  }
}

export async function initCommand(args: ParsedArgs): Promise<number> {
  const name = args.positionals[0];
  if (name === undefined) {
    const rows = listTemplates().map((t) => `  ${t.id.padEnd(10)} ${t.kind.padEnd(8)} ${t.title}: ${t.description}`);
    process.stdout.write(`Starters (assay init NAME [--workspace DIR] [--force]):\n${rows.join('\n')}\n`);
    return 0;
  }
  if (args.positionals.length > 1) throw new UsageError('init takes one starter name: assay init NAME [--workspace DIR] [--force]');
  const base = process.cwd();
  const workspace = resolve(stringOption(args, 'workspace') ?? '.');
  if (!existsSync(workspace)) throw new AssayError('CONFIG', `workspace folder ${workspace} does not exist`, { field: 'workspace' });
  const r = renderTemplate(name, { workspace, base, catalogue: catalogueOf(workspace) });
  const out = join(base, r.defaultPath);
  if (existsSync(out) && args.options.get('force') !== true) {
    throw new AssayError('CONFIG', `${out} already exists; not overwritten (--force replaces it)`);
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, r.text);
  if (args.options.get('quiet') !== true) process.stdout.write(`wrote ${r.defaultPath} (paths relative to ${base})\n`);
  return 0;
}
