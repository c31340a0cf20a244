// `assay lint -c recipe.yaml --index ROOT`: problems of a recipe on this dataset; exit 1 when there are errors.
import type { ParsedArgs } from './args.js';
import { openForCli, readRecipe } from './preview.js';

export async function lintCommand(args: ParsedArgs): Promise<number> {
  const { path, text, root } = await readRecipe(args, 'lint');
  const engine = openForCli(root);
  try {
    const issues = engine.lint(text, { recipePath: path });
    if (args.options.get('json') === true) process.stdout.write(JSON.stringify(issues) + '\n');
    else if (issues.length === 0) process.stdout.write(`${path}: no problems found\n`);
    else for (const i of issues) process.stdout.write(`${path}${i.line !== undefined ? `:${i.line}` : ''}: ${i.severity} [${i.code}] ${i.message}\n`);
    return issues.some((i) => i.severity === 'error') ? 1 : 0;
  } finally {
    engine.close();
  }
}
