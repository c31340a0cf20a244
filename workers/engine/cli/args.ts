// Argument parsing for `assay`, accepting both `assay mix -c x.yaml` and Dolma's `assay -c x.yaml mix`.

export interface OptionSpec {
  /** Takes a value (`--processes 2` or `--processes=2`); otherwise a boolean flag. */
  value?: boolean;
  /** Takes one or more values (`--taggers a b c`), and may be repeated; implies `value`. */
  multiple?: boolean;
  /**
   * Takes one value per occurrence and may be repeated: once it is a string, as for `value`; given again, the
   * values in order (`-c old.yaml -c new.yaml`). Unlike `multiple` it never takes the next word, so Dolma's
   * `assay -c config.yaml tag` still reads `tag` as the command.
   */
  repeatable?: boolean;
  /** A flag that takes the next word as its value when there is one (`--ids FILE` for remove, bare `--ids` for preview). */
  optionalValue?: boolean;
  alias?: string;
  description: string;
}

export interface ParsedArgs {
  command: string | undefined;
  options: Map<string, string | true | string[]>;
  positionals: string[];
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseArgs(argv: readonly string[], specs: Readonly<Record<string, OptionSpec>>): ParsedArgs {
  const byAlias = new Map<string, string>();
  for (const [name, spec] of Object.entries(specs)) if (spec.alias) byAlias.set(spec.alias, name);
  const options = new Map<string, string | true | string[]>();
  const positionals: string[] = [];
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      const eq = arg.indexOf('=');
      const rawName = eq > 0 ? arg.slice(0, eq) : arg;
      const name = rawName.startsWith('--') ? rawName.slice(2) : (byAlias.get(rawName.slice(1)) ?? rawName.slice(1));
      const spec = specs[name];
      if (!spec) throw new UsageError(`unknown option ${rawName}`);
      if (spec.multiple) {
        const values = eq > 0 ? [arg.slice(eq + 1)] : [];
        while (eq < 0 && i + 1 < argv.length && !(argv[i + 1] as string).startsWith('-')) values.push(argv[++i] as string);
        if (values.length === 0) throw new UsageError(`option ${rawName} needs at least one value`);
        const prev = options.get(name);
        options.set(name, [...(Array.isArray(prev) ? prev : []), ...values]);
      } else if (spec.value || spec.repeatable) {
        const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
        if (v === undefined) throw new UsageError(`option ${rawName} needs a value`);
        const prev = options.get(name);
        options.set(name, spec.repeatable && prev !== undefined ? [...(Array.isArray(prev) ? prev : [String(prev)]), v] : v);
      } else if (spec.optionalValue) {
        const next = argv[i + 1];
        options.set(name, eq > 0 ? arg.slice(eq + 1) : next !== undefined && !next.startsWith('-') ? (i++, next) : true);
      } else {
        if (eq > 0) throw new UsageError(`option ${rawName} takes no value`);
        options.set(name, true);
      }
      continue;
    }
    if (command === undefined) command = arg;
    else positionals.push(arg);
  }
  return { command, options, positionals };
}

export function intOption(args: ParsedArgs, name: string, min = 1): number | undefined {
  const v = args.options.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got '${String(v)}'`);
  return n;
}

export function helpTable(specs: Readonly<Record<string, OptionSpec>>): string {
  const rows = Object.entries(specs).map(([name, s]) => [`${s.alias ? `-${s.alias}, ` : '    '}--${name}${s.multiple ? ' VALUE…' : s.value || s.repeatable ? ' VALUE' : ''}`, s.description] as const);
  // Dotted Dolma names (--tokenizer.segment_before_tokenization) are longer than the usual column.
  const width = Math.max(30, ...rows.map(([flag]) => flag.length));
  return rows.map(([flag, description]) => `  ${flag.padEnd(width)} ${description}`).join('\n');
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  if (v === undefined) return undefined;
  // A repeatable option given twice to a command that takes it once (`assay mix -c a.yaml -c b.yaml`).
  if (Array.isArray(v)) throw new UsageError(`--${name} was given ${v.length} times (${v.join(', ')}); ${args.command ?? 'this command'} takes one`);
  if (typeof v !== 'string') throw new UsageError(`--${name} needs one value`);
  return v;
}

export function listOption(args: ParsedArgs, name: string): string[] | undefined {
  const v = args.options.get(name);
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/**
 * Whether files marked complete are done again: `--ignore-existing` or the config's `ignore_existing`, unless
 * `--keep-existing` (a cluster run's final step, after its tasks did every file) outranks both.
 */
export function redoExisting(args: ParsedArgs, fromConfig: boolean | undefined): boolean {
  return args.options.get('keep-existing') !== true && (args.options.get('ignore-existing') === true || fromConfig === true);
}
