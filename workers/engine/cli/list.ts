// `assay list`: every registered tagger with its description and outputs (Dolma's `dolma list`).
import { TaggerRegistry, BUILTIN_FAMILIES } from '../tag/registry.js';
import { listOption, type ParsedArgs } from './args.js';

export async function listCommand(args: ParsedArgs): Promise<number> {
  const registry = new TaggerRegistry();
  const custom: string[] = [];
  for (const m of listOption(args, 'tagger-modules') ?? []) custom.push(...(await registry.loadModule(m, process.cwd())));
  const verbose = args.options.get('verbose') === true;
  const families = [...BUILTIN_FAMILIES, ...(custom.length ? [{ family: 'Custom', taggers: custom.map((n) => registry.get(n)) }] : [])];
  if (args.options.get('json') === true) {
    const rows = families.flatMap((f) => f.taggers.map((t) => ({ family: f.family, name: t.name, description: t.description, outputs: t.outputs, options: Boolean(t.options) })));
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`${f.family}:`);
    for (const t of f.taggers) {
      lines.push(`  ${t.name.padEnd(42)} ${t.description}`);
      if (verbose) for (const o of t.outputs) lines.push(`      ${o.type.padEnd(40)} ${o.range.padEnd(16)} ${o.description}`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
