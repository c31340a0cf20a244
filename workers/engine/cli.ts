// The `assay` command line: Dolma's verbs over the engine, with Dolma's `-c CONFIG` placement accepted anywhere.
import { isAssayError } from './errors.js';
import { helpTable, parseArgs, UsageError, type OptionSpec } from './cli/args.js';
import { mixCommand } from './cli/mix.js';
import { disposeJq } from './mix/filters/jq/index.js';

const OPTIONS: Record<string, OptionSpec> = {
  config: { alias: 'c', value: true, description: 'recipe / config file (YAML or JSON, Dolma format)' },
  processes: { value: true, description: 'parallel processes (overrides the config)' },
  'skip-bad-lines': { description: 'skip malformed lines (counted in the summary, logged with file:line)' },
  dryrun: { description: 'print the resolved config and exit' },
  quiet: { alias: 'q', description: 'no progress bar or summary' },
  help: { alias: 'h', description: 'show this help' },
  version: { description: 'print the version' },
};

const COMMANDS: Record<string, { summary: string; run: typeof mixCommand }> = {
  mix: { summary: 'filter, edit and shard documents with a Dolma mixer recipe', run: mixCommand },
};

export const HELP = `assay — Dolma-compatible corpus curation

Usage:
  assay mix -c recipe.yaml [--processes N] [--skip-bad-lines] [--quiet]
  assay -c recipe.yaml mix            (Dolma's argument order works too)

Commands:
${Object.entries(COMMANDS)
  .map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`)
  .join('\n')}

Options:
${helpTable(OPTIONS)}

Relative paths in a recipe resolve against the current directory, as in Dolma.
Exit status: 0 success, 1 failure (message names file:line or config field), 2 usage or config error, 130 cancelled.
`;

export async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const args = parseArgs(argv, OPTIONS);
    if (args.options.get('version') === true) {
      process.stdout.write('assay 0.1.0\n');
      return 0;
    }
    if (args.options.get('help') === true || args.command === undefined || args.command === 'help') {
      process.stdout.write(HELP);
      return args.command === undefined && args.options.size === 0 ? 2 : 0;
    }
    const cmd = COMMANDS[args.command];
    if (!cmd) throw new UsageError(`unknown command '${args.command}' (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return await cmd.run(args, controller.signal);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`assay: ${e.message}\nRun 'assay --help' for usage.\n`);
      return 2;
    }
    if (isAssayError(e)) {
      if (e.code === 'CANCELLED') {
        process.stderr.write('assay: cancelled; no partial output was kept\n');
        return 130;
      }
      process.stderr.write(`assay: error: ${e.message}\n`);
      return e.code === 'CONFIG' ? 2 : 1;
    }
    process.stderr.write(`assay: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    disposeJq();
  }
}
