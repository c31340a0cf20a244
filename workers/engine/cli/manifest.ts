// `assay manifest PATH [--json]`: a run's manifest and, indented below it, the manifests of everything it read.
import { AssayError, isAssayError } from '../errors.js';
import { chainJson, loadChain, type ChainNode, type ChainParent } from '../manifest/chain.js';
import { resolveManifest, type LoadedManifest } from '../manifest/read.js';
import type { OutputEntry, RunManifest, TokenCount } from '../manifest/schema.js';
import { UsageError, type ParsedArgs } from './args.js';
import { formatBytes } from './progress-bar.js';

/** Outputs listed per manifest; a mix may write hundreds of shards, the totals line covers the rest. */
const MAX_OUTPUTS = 10;

const n = (x: number): string => x.toLocaleString('en-US');
/** Estimates are labelled wherever a count is printed (the index and mix count ⌈UTF-8 bytes / 4⌉, tokens counts exactly). */
export const tokenText = (t: TokenCount | null): string => (t === null ? '' : `${n(t.count)} ${t.kind === 'exact' ? 'tokens' : 'est. tokens'}`);

/**
 * A manifest the user named that cannot be read is a bad input file (exit 1), as a corrupt documents file is;
 * the message names the file.
 */
export async function loadNamed(path: string): Promise<LoadedManifest> {
  try {
    return await resolveManifest(path);
  } catch (e) {
    if (isAssayError(e) && e.code === 'CONFIG') throw new AssayError('IO', e.detail, { file: e.file ?? path });
    throw e;
  }
}

function outputLine(o: OutputEntry): string {
  const parts = [o.path, formatBytes(o.size), o.role, o.docs === null ? '' : `${n(o.docs)} docs`, tokenText(o.tokens)];
  return parts.filter((p) => p !== '').join('  ');
}

function roles(m: RunManifest): string {
  const by = new Map<string, number>();
  for (const i of m.inputs) by.set(i.role, (by.get(i.role) ?? 0) + 1);
  return [...by].map(([r, c]) => `${r} ${c}`).join(', ');
}

/** One manifest's lines, indented by `pad`. */
function manifestLines(node: ChainNode, pad: string): string[] {
  const m = node.manifest;
  const t = m.tool;
  const seeds = Object.entries(m.seeds).map(([k, v]) => `${k}=${v}`);
  const raw = m.inputs.filter((i) => i.parent === null).length;
  const lines = [
    `${pad}  ran ${m.run.started} (${m.run.elapsedSec.toFixed(1)} s) · ${t.name} ${t.version}${t.commit ? ` @ ${t.commit.slice(0, 12)}` : ''} · node ${t.node} · ${t.host}`,
    `${pad}  config sha256 ${m.configSha256}${m.redacted.length ? ` (redacted: ${m.redacted.join(', ')})` : ''}${seeds.length ? ` · seeds ${seeds.join(' ')}` : ''}`,
    `${pad}  outputs: ${m.outputs.length} file(s) · ${n(m.totals.docs)} docs${m.totals.tokens ? ` · ${tokenText(m.totals.tokens)}` : ''}`,
    ...m.outputs.slice(0, MAX_OUTPUTS).map((o) => `${pad}    ${outputLine(o)}`),
    ...(m.outputs.length > MAX_OUTPUTS ? [`${pad}    … and ${m.outputs.length - MAX_OUTPUTS} more (--json lists all)`] : []),
    `${pad}  inputs: ${m.inputs.length} file(s)${m.inputs.length ? ` (${roles(m)})` : ''}` +
      (raw > 0 ? `; ${raw} raw (no run manifest lists them)` : '') +
      (m.parents.length > 0 ? `; ${m.inputs.length - raw} made by the ${m.parents.length} run(s) below` : ''),
  ];
  return lines;
}

const NOTE: Record<ChainParent['status'], string> = {
  same: '',
  rerun: '  [rerun since, same content apart from times]',
  changed: '  [CHANGED since: its stage ran again differently after this run read it]',
  missing: '  [MISSING]',
  invalid: '  [UNREADABLE]',
};

/** The chain, root first, each parent indented under the manifest that read its outputs. */
export function formatChain(root: ChainNode): string {
  const out: string[] = [`${root.manifest.stage}  ${root.path}`, ...manifestLines(root, '')];
  const walk = (node: ChainNode, pad: string): void => {
    for (const p of node.parents) {
      out.push(`${pad}  ← ${p.ref.stage}  ${p.ref.path}${NOTE[p.status]}${p.cycle ? '  [cycle: shown above]' : ''}`);
      if (p.error) out.push(`${pad}      ${p.error}`);
      if (p.node && !p.cycle) {
        out.push(...manifestLines(p.node, `${pad}    `));
        walk(p.node, `${pad}    `);
      }
    }
  };
  walk(root, '');
  return out.join('\n') + '\n';
}

/** Links that cannot be followed, anywhere in the chain. */
function broken(root: ChainNode): ChainParent[] {
  const found: ChainParent[] = [];
  const walk = (n: ChainNode): void => {
    for (const p of n.parents) {
      if (p.status === 'missing' || p.status === 'invalid') found.push(p);
      if (p.node && !p.cycle) walk(p.node);
    }
  };
  walk(root);
  return found;
}

/** Exit 0 with the whole chain readable; 1 when the named manifest or a parent manifest is missing or unreadable. */
export async function manifestCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError('manifest needs one PATH (an output folder, a manifest file or a dataset root): assay manifest PATH [--json]');
  const chain = await loadChain(await loadNamed(args.positionals[0] as string));
  process.stdout.write(args.options.get('json') === true ? JSON.stringify(chainJson(chain), null, 2) + '\n' : formatChain(chain));
  const bad = broken(chain);
  for (const p of bad) process.stderr.write(`assay: error: a parent manifest cannot be read: ${p.error ?? p.ref.path}\n`);
  return bad.length > 0 ? 1 : 0;
}
