// Test helpers for the host: a small Dolma workspace on disk, an in-memory host with its client, and event collection.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorPayload, EventEnvelope, EventName, Events } from '../../shared/contract/index.js';
import { rng, writeJsonl } from '../engine/testing.js';

/** Re-exported for main/ tests, which may not import the engine layer. */
export { scratchDir } from '../engine/testing.js';
import { HostCallError, HostClient } from './client.js';
import { createHost, type Host } from './host.js';
import type { OpenEngine } from './index-service.js';
import { memoryPair } from './transport.js';

const WORDS = ['data', 'river', 'model', 'paper', 'green', 'quietly', 'market', 'seven', 'window', 'language', 'the', 'of', 'and', 'to'];

/** `documents/*.jsonl.gz` with `files` files of `docs` documents each, plus a recipe and a tag config. */
export function makeWorkspace(dir: string, opts: { files?: number; docs?: number; words?: number } = {}): string {
  const r = rng(11);
  for (let f = 0; f < (opts.files ?? 1); f++) {
    const rows = Array.from({ length: opts.docs ?? 40 }, (_, i) => {
      const n = 5 + Math.floor(r() * (opts.words ?? 120));
      const text = Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
      return { id: `f${f}-d${i}`, text, source: f % 2 ? 'forum' : 'web', metadata: {} };
    });
    writeJsonl(join(dir, 'documents', `part-${f}.jsonl.gz`), rows);
  }
  mkdirSync(join(dir, 'recipes'), { recursive: true });
  writeFileSync(
    join(dir, 'recipes', 'short.yaml'),
    `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    attributes: [lengths]\n    output: {path: output/s}\n    filter:\n      exclude:\n        - "$.attributes[?(@.lengths__whitespace_tokenizer_v1__length && @.lengths__whitespace_tokenizer_v1__length[0] && @.lengths__whitespace_tokenizer_v1__length[0][2] < 40)]"\n`,
  );
  mkdirSync(join(dir, 'configs'), { recursive: true });
  writeFileSync(join(dir, 'configs', 'tag.yaml'), 'documents: [documents/*.jsonl.gz]\ntaggers: [whitespace_tokenizer_v1]\nexperiment: lengths\n');
  return dir;
}

export interface MemoryHost {
  host: Host;
  client: HostClient;
  events: EventEnvelope[];
  /** Resolves with the first event of that name whose payload passes `test` (already received or future). */
  next<E extends EventName>(event: E, test?: (p: Events[E]) => boolean, timeoutMs?: number): Promise<Events[E]>;
  close(): Promise<void>;
}

export function memoryHost(workspace: string, openEngine: OpenEngine, opts: { restartReason?: string } = {}): MemoryHost {
  const pair = memoryPair();
  const host = createHost({ workspace, endpoint: pair.host, openEngine, cancelGraceMs: 5000, ...opts });
  const client = new HostClient(pair.client);
  const events: EventEnvelope[] = [];
  const waiters = new Set<() => void>();
  client.onEvent((e) => {
    events.push(e);
    for (const w of [...waiters]) w();
  });
  const next = <E extends EventName>(event: E, test: (p: Events[E]) => boolean = () => true, timeoutMs = 30_000): Promise<Events[E]> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const hit = events.find((e) => e.event === event && test(e.payload as Events[E]));
        if (!hit) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(hit.payload as Events[E]);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no '${event}' event within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });
  return {
    host,
    client,
    events,
    next,
    close: async () => {
      await host.close();
      await client.close();
    },
  };
}

/** The error payload a call fails with; throws when it succeeds (for tests that expect a refusal). */
export async function failure(p: Promise<unknown>): Promise<ErrorPayload> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HostCallError) return e.payload;
    throw e;
  }
  throw new Error('the call succeeded');
}
