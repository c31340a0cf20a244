// A manifest with its parents loaded recursively (what `assay manifest` prints), noting parents that changed or vanished.
import { isAssayError } from '../errors.js';
import { loadManifest, type LoadedManifest } from './read.js';
import type { ParentRef, RunManifest } from './schema.js';

/**
 * How a parent manifest compares with what the child recorded when it ran: `same` bytes, `rerun` (rewritten with
 * the same content apart from times: an identical rerun), `changed` (its stage ran again differently since, so
 * the child was made from an earlier version), `missing`/`invalid` (cannot be read: `error` says why).
 */
export type ParentStatus = 'same' | 'rerun' | 'changed' | 'missing' | 'invalid';

export interface ChainNode {
  path: string;
  sha256: string;
  manifest: RunManifest;
  parents: ChainParent[];
}

export interface ChainParent {
  ref: ParentRef;
  status: ParentStatus;
  /** The parent as it is now (absent when missing or invalid). */
  node?: ChainNode;
  error?: string;
  /** True when this parent already appears higher in the chain (a cycle): not expanded again. */
  cycle?: boolean;
}

/** Loads `root`'s parents, theirs and so on. Each manifest is read once (`cache`), however many children name it. */
export async function loadChain(root: LoadedManifest, cache: Map<string, Promise<LoadedManifest>> = new Map()): Promise<ChainNode> {
  const nodes = new Map<string, Promise<ChainNode>>();
  const load = (path: string): Promise<LoadedManifest> => {
    let p = cache.get(path);
    if (!p) cache.set(path, (p = loadManifest(path)));
    return p;
  };
  const build = (m: LoadedManifest, above: ReadonlySet<string>): Promise<ChainNode> => {
    let n = nodes.get(m.path);
    if (n) return n;
    const here = new Set(above).add(m.path);
    n = (async (): Promise<ChainNode> => {
      const parents: ChainParent[] = [];
      for (const ref of m.manifest.parents) {
        if (here.has(ref.path)) {
          parents.push({ ref, status: 'same', cycle: true });
          continue;
        }
        let loaded: LoadedManifest;
        try {
          loaded = await load(ref.path);
        } catch (e) {
          if (!isAssayError(e)) throw e;
          parents.push({ ref, status: /is missing$/.test(e.detail) ? 'missing' : 'invalid', error: e.message });
          continue;
        }
        const status: ParentStatus = loaded.sha256 === ref.sha256 ? 'same' : loaded.contentSha256 === ref.contentSha256 ? 'rerun' : 'changed';
        parents.push({ ref, status, node: await build(loaded, here) });
      }
      return { path: m.path, sha256: m.sha256, manifest: m.manifest, parents };
    })();
    nodes.set(m.path, n);
    return n;
  };
  return build(root, new Set());
}

/** The chain as plain JSON: each manifest with `path`, `sha256` and its `parents` resolved (status, error, the parent's own chain). */
export function chainJson(node: ChainNode): unknown {
  return {
    path: node.path,
    sha256: node.sha256,
    ...node.manifest,
    parents: node.parents.map((p) => ({
      ...p.ref,
      status: p.status,
      ...(p.error !== undefined ? { error: p.error } : {}),
      ...(p.cycle ? { cycle: true } : {}),
      ...(p.node ? { manifest: chainJson(p.node) } : {}),
    })),
  };
}

/** Every manifest in the chain once, root first (depth first, in parents' order). */
export function chainNodes(root: ChainNode): ChainNode[] {
  const seen = new Map<string, ChainNode>();
  const walk = (n: ChainNode): void => {
    if (seen.has(n.path)) return;
    seen.set(n.path, n);
    for (const p of n.parents) if (p.node) walk(p.node);
  };
  walk(root);
  return [...seen.values()];
}
