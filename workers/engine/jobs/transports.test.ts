// The pipeline's pools on worker threads (ASSAY_POOL=threads) write exactly what they write on processes: tag, mix (JSONPath and jq), tokens, the index and its search.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type * as ZstdNapi from 'zstd-napi';
import { finewebDocs } from '../cli/test-corpus.js';
import { buildIndex, buildSearch, PreviewEngine } from '../index/index.js';
import { parseMixerConfig } from '../mix/config.js';
import { runMix } from '../mix/mixer.js';
import { runTag } from '../tag/runtime.js';
import { scratchDir, writeJsonl } from '../testing.js';
import { runTokens } from '../tokenize/runtime.js';
import { NEOX_EOS, NEOX_JSON } from '../tokenize/test-helpers.js';
import type { PoolTransport } from './pool.js';

const zstd = createRequire(import.meta.url)('zstd-napi') as typeof ZstdNapi;

/** Four documents files in three codecs (gzip, zstd through zstd-napi, plain). */
function dataset(root: string): void {
  const docs = finewebDocs(80).map((d, i) => ({ ...d, source: i % 2 ? 'web' : 'books' }));
  const part = (k: number): typeof docs => docs.filter((_, i) => i % 4 === k);
  writeJsonl(join(root, 'documents/a.jsonl.gz'), part(0));
  writeJsonl(join(root, 'documents/b.jsonl.gz'), part(1));
  writeJsonl(join(root, 'documents/c.jsonl'), part(2));
  writeFileSync(join(root, 'documents/d.jsonl.zst'), zstd.compress(Buffer.from(part(3).map((d) => JSON.stringify(d)).join('\n') + '\n')));
}

const recipe = `streams:
  - name: path
    documents: [documents/*]
    attributes: [exp]
    output: {path: mixed/path, max_size_in_bytes: 4000}
    filter:
      exclude:
        - "$.attributes[?(@.exp__char_length_v1__length && @.exp__char_length_v1__length[0][2] < 200)]"
    span_replacement:
      - span: $.attributes.exp__pii_regex_v1__email_address
        min_score: 0.5
        replacement: "|||EMAIL|||"
  - name: jq
    documents: [documents/*]
    attributes: [exp]
    output: {path: mixed/jq, max_size_in_bytes: 4000}
    filter:
      syntax: jq
      exclude:
        - "(.attributes.exp__lid176__en // [[0, 0, 0]])[0][2] < 0.5"
processes: 2
`;

/** Every file under `dir` by content hash, without Assay's bookkeeping (`.assay*`: timings, markers with mtimes). */
function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    if (e.name.startsWith('.assay')) continue;
    const p = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) Object.assign(out, tree(dir, p));
    else out[p] = createHash('sha256').update(readFileSync(join(dir, p))).digest('hex').slice(0, 16);
  }
  return out;
}

/** What the index answers: files, catalogue, every document with its values, and searches (the search shards). */
function indexAnswers(root: string): unknown {
  const e = PreviewEngine.open(root);
  try {
    const page = e.documentsPage({ offset: 0, limit: 1000 });
    return {
      files: e.files(),
      catalogue: e.catalogue(),
      docs: page.rows.map((r) => e.document(r.id)),
      search: ['river', 'français', 'buy now', 'jane'].map((q) => e.documentsPage({ offset: 0, limit: 1000, search: q }).rows.map((r) => r.id)),
    };
  } finally {
    e.close();
  }
}

/**
 * Child processes and threads of this process seen while `run` goes (Linux /proc), so the test knows which transport
 * ran. `earlier` children are not counted: a pool's worker may still be exiting after its run has resolved.
 */
async function observed<T>(run: () => Promise<T>, earlier: ReadonlySet<string> = new Set()): Promise<{ value: T; children: number; pids: Set<string>; maxThreads: number }> {
  const children = new Set<string>();
  let maxThreads = 0;
  const sample = (): void => {
    try {
      const tids = readdirSync('/proc/self/task');
      maxThreads = Math.max(maxThreads, tids.length);
      for (const t of tids) for (const pid of readFileSync(`/proc/self/task/${t}/children`, 'utf8').split(' ').filter(Boolean)) if (!earlier.has(pid)) children.add(pid);
    } catch {
      /* a thread ended while being read */
    }
  };
  const timer = setInterval(sample, 15);
  try {
    return { value: await run(), children: children.size, pids: children, maxThreads };
  } finally {
    clearInterval(timer);
  }
}

async function pipeline(root: string, transport: PoolTransport): Promise<{ files: Record<string, string>; index: unknown; logs: string[] }> {
  process.env.ASSAY_POOL = transport;
  const logs: string[] = [];
  const log = (m: string): void => void logs.push(m);
  await runTag({ documents: ['documents/*'], taggers: ['char_length_v1', 'lid176', 'pii_regex_v1', 'token_stats'], experiment: 'exp', cwd: root, processes: 2, log });
  await runMix(parseMixerConfig(recipe, 'recipe.yaml'), { cwd: root, log });
  await runTokens({ documents: ['mixed/*/*.gz'], destination: 'tokens', tokenizer: { nameOrPath: NEOX_JSON, eosTokenId: NEOX_EOS, padTokenId: 1 }, cwd: root, processes: 2, maxSize: 3000, log });
  await buildIndex(root, { processes: 2, search: false, log });
  await buildSearch(root, { processes: 2, log });
  return { files: tree(root), index: indexAnswers(root), logs };
}

const saved = process.env.ASSAY_POOL;
afterEach(() => {
  if (saved === undefined) delete process.env.ASSAY_POOL;
  else process.env.ASSAY_POOL = saved;
});

describe('ASSAY_POOL=threads', () => {
  it('tag, mix, tokens, the index and its search give identical outputs on threads and on processes', { timeout: 240_000 }, async () => {
    const base = scratchDir();
    dataset(join(base, 'input'));
    for (const t of ['processes', 'threads']) cpSync(join(base, 'input'), join(base, t), { recursive: true, preserveTimestamps: true });
    const baseline = readdirSync('/proc/self/task').length;
    const p = await observed(() => pipeline(join(base, 'processes'), 'processes'));
    const t = await observed(() => pipeline(join(base, 'threads'), 'threads'), p.pids);
    // Each ran as asked: worker processes for one, none (and more threads) for the other.
    expect(p.children).toBeGreaterThanOrEqual(5);
    expect(t.children).toBe(0);
    expect(t.maxThreads).toBeGreaterThanOrEqual(baseline + 2);
    const [procs, threads] = [p.value, t.value];
    // The run produced something worth comparing: attributes for every file, shards of both streams, token parts.
    const names = Object.keys(procs.files);
    expect(names.filter((n) => n.startsWith('attributes/exp/'))).toHaveLength(4);
    expect(names.some((n) => n.startsWith('mixed/path/'))).toBe(true);
    expect(names.some((n) => n.startsWith('mixed/jq/'))).toBe(true);
    expect(names.filter((n) => n.startsWith('tokens/') && n.endsWith('.npy')).length).toBeGreaterThan(1);
    expect((procs.index as { docs: unknown[] }).docs.length).toBe(87);
    expect((procs.index as { search: string[][] }).search.every((ids) => ids.length > 0)).toBe(true);
    expect(threads.files).toEqual(procs.files);
    expect(threads.index).toEqual(procs.index);
    expect(threads.logs.sort()).toEqual(procs.logs.sort());
  });
});
