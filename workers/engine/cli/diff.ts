// `assay diff A B` (two run manifests) and `assay diff -c OLD -c NEW --index ROOT` (two recipes over one index).
import { diffManifests, type Change, type FileChange, type ManifestDiff } from '../manifest/diff.js';
import { resolveManifest, type LoadedManifest } from '../manifest/read.js';
import { UsageError, type ParsedArgs } from './args.js';
import { recipeDiffCommand } from './recipe-diff.js';

/** Lines listed per section; `--json` has everything. */
const MAX_LINES = 20;
const USAGE = 'diff compares two run manifests (assay diff A B) or two recipes over an index (assay diff -c OLD -c NEW --index ROOT)';

const n = (x: number): string => x.toLocaleString('en-US');
const value = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));
const signed = (d: number): string => (d > 0 ? `+${n(d)}` : d < 0 ? `−${n(-d)}` : '±0');
const short = (sha: string | undefined): string => (sha === undefined ? '' : `${sha.slice(0, 12)}…`);

function capped(lines: string[]): string[] {
  return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `    … and ${lines.length - MAX_LINES} more (--json lists all)`] : lines;
}

function section(title: string, changes: Change[]): string[] {
  if (changes.length === 0) return [];
  return [`${title}: ${changes.length} change(s)`, ...capped(changes.map((c) => `    ${c.path}: ${value(c.old)} → ${value(c.new)}`))];
}

function fileSection(title: string, files: FileChange[]): string[] {
  if (files.length === 0) return [];
  const count = (k: FileChange['change']): number => files.filter((f) => f.change === k).length;
  const docs = (s: FileChange['old']): string => (s?.docs === undefined || s.docs === null ? '' : `, ${n(s.docs)} docs`);
  const line = (f: FileChange): string =>
    f.change === 'added' ? `    + ${f.path} (${f.role}) sha256 ${short(f.new?.sha256)}${docs(f.new)}`
      : f.change === 'removed' ? `    - ${f.path} (${f.role}) sha256 ${short(f.old?.sha256)}${docs(f.old)}`
        : `    ~ ${f.path} (${f.role}) sha256 ${short(f.old?.sha256)} → ${short(f.new?.sha256)}${docs(f.old)}${f.new?.docs !== f.old?.docs ? ` → ${n(f.new?.docs ?? 0)}` : ''}`;
  return [`${title}: ${count('added')} added, ${count('removed')} removed, ${count('changed')} changed`, ...capped(files.map(line))];
}

export function formatManifestDiff(d: ManifestDiff, a: LoadedManifest, b: LoadedManifest): string {
  const head = [`A: ${a.path}  (${a.manifest.stage}, ran ${a.manifest.run.started})`, `B: ${b.path}  (${b.manifest.stage}, ran ${b.manifest.run.started})`];
  if (d.identical) return [...head, 'identical apart from times'].join('\n') + '\n';
  const sources = d.bySource.map((m) => {
    const t = m.tokens.kind === 'exact' ? 'tokens' : 'est. tokens';
    return `    ${(m.source || '(none)').padEnd(16)} docs ${n(m.docs.old)} → ${n(m.docs.new)} (${signed(m.docs.new - m.docs.old)})   ${t} ${n(m.tokens.old)} → ${n(m.tokens.new)} (${signed(m.tokens.new - m.tokens.old)})`;
  });
  return [
    ...head,
    ...section('run', d.run),
    ...section('config', d.config),
    ...section('seeds', d.seeds),
    ...fileSection('inputs', d.inputs),
    ...fileSection('outputs', d.outputs),
    ...section('parent manifests (by content)', d.parents),
    ...section('totals', d.totals),
    ...(sources.length ? ['documents and tokens per source that moved:', ...sources] : []),
  ].join('\n') + '\n';
}

/** Like diff(1): exit 0 identical apart from times, 1 different; a manifest that cannot be read is a config error (2). */
async function manifestDiffCommand(args: ParsedArgs): Promise<number> {
  const [pa, pb] = args.positionals as [string, string];
  const [a, b] = await Promise.all([resolveManifest(pa), resolveManifest(pb)]);
  const d = diffManifests(a.manifest, b.manifest);
  process.stdout.write(args.options.get('json') === true ? JSON.stringify({ a: a.path, b: b.path, ...d }, null, 2) + '\n' : formatManifestDiff(d, a, b));
  return d.identical ? 0 : 1;
}

export async function diffCommand(args: ParsedArgs, signal?: AbortSignal): Promise<number> {
  const configs = args.options.get('config');
  const twoConfigs = Array.isArray(configs) && configs.length === 2;
  if (twoConfigs && args.positionals.length === 0) return recipeDiffCommand(args, signal);
  if (configs === undefined && args.positionals.length === 2) {
    if (args.options.has('index')) throw new UsageError(`--index is for recipe diffs; ${USAGE}`);
    return manifestDiffCommand(args);
  }
  const got = configs === undefined ? `${args.positionals.length} path(s)` : `${Array.isArray(configs) ? configs.length : 1} -c and ${args.positionals.length} path(s)`;
  throw new UsageError(`${USAGE}; got ${got}`);
}
