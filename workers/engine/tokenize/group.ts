// One output group, as Dolma's per-process loop: a ring of open files read round-robin, batches shuffled, memmaps filled in order.
import { AssayError } from '../errors.js';
import { FileCursor, type CursorCounters, type CursorHooks, type DocSettings, type TokenizedDoc } from './documents.js';
import { seededRandom, shuffleInPlace, weightedIndex } from './shuffle.js';
import type { TextTokenizer } from './tokenizer/types.js';
import { GroupWriter, type PartInfo } from './writer.js';

export interface GroupSettings extends DocSettings {
  maxTokens: number;
  /** Documents collected before each shuffle (Dolma's `batch_size` / `local_shuffle`). */
  batchSize: number;
  ringSize: number;
  sampleRingProp: boolean;
  seed: number;
}

export interface GroupTask {
  index: number;
  /** `<destination>/part-<i>`. */
  prefix: string;
  /** In group order; the ring takes files from the end, as Dolma's `source_paths.pop()`. */
  files: { path: string; src: string; size: number }[];
}

export interface SourceCount {
  docs: number;
  /** Tokens written, BOS/EOS included. */
  tokens: number;
  /** Tokens of the texts alone. */
  rawTokens: number;
}

export interface GroupResult extends CursorCounters {
  index: number;
  parts: PartInfo[];
  docs: number;
  tokens: number;
  rawTokens: number;
  /** By the documents' `source` field ('' when absent). */
  perSource: Map<string, SourceCount>;
  /** Each input file read to its end, with the sha256 its reader computed (run manifests). */
  inputs: { path: string; sha256: string }[];
}

export interface GroupHooks extends CursorHooks {
  onProgress?: (delta: { compressedBytes: number; bytes: number; docs: number; files?: number }) => void;
}

export async function tokenizeGroup(task: GroupTask, tokenizer: TextTokenizer, s: GroupSettings, hooks: GroupHooks = {}): Promise<GroupResult> {
  const result: GroupResult = { index: task.index, parts: [], docs: 0, tokens: 0, rawTokens: 0, perSource: new Map(), skippedEmpty: 0, badLines: 0, badLineSamples: [], inputs: [] };
  const random = seededRandom(s.seed, `group:${task.index}`);
  const paths = task.files.slice();
  const ring: { cursor: FileCursor; size: number }[] = [];
  const open = (): void => {
    const f = paths.pop();
    if (f !== undefined) ring.push({ cursor: new FileCursor(f.path, f.src, tokenizer, s, result, hooks), size: f.size });
  };
  const writer = new GroupWriter(task.prefix, s.maxTokens);
  try {
    for (let k = 0; k < Math.min(s.ringSize, task.files.length); k++) open();
    while (paths.length > 0 || ring.length > 0) {
      const batch: TokenizedDoc[] = [];
      for (let i = 0; i < s.batchSize && ring.length > 0; i++) {
        if (hooks.signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
        const j = s.sampleRingProp ? weightedIndex(ring.map((r) => r.size), random) : i % ring.length;
        const member = ring[j] as (typeof ring)[number];
        const doc = await member.cursor.next();
        if (doc !== null) {
          batch.push(doc);
          continue;
        }
        // Dolma checks for an empty ring before refilling it, which never ends when ring_size < files; refill first.
        ring.splice(j, 1);
        if (member.cursor.sha256 !== undefined) result.inputs.push({ path: member.cursor.path, sha256: member.cursor.sha256 });
        hooks.onProgress?.({ compressedBytes: 0, bytes: 0, docs: 0, files: 1 });
        open();
      }
      count(result, batch);
      shuffleInPlace(batch, random);
      let remaining = await writer.writeMany(batch);
      while (remaining.length > 0) {
        await writer.rotate();
        shuffleInPlace(remaining, random);
        remaining = await writer.writeMany(remaining);
      }
    }
    await writer.rotate();
  } catch (e) {
    await writer.abort();
    await Promise.all(ring.map((r) => r.cursor.close().catch(() => undefined)));
    throw e;
  }
  result.parts = writer.parts;
  return result;
}

function count(result: GroupResult, batch: readonly TokenizedDoc[]): void {
  for (const d of batch) {
    result.docs++;
    result.tokens += d.tokens.length;
    result.rawTokens += d.raw;
    let c = result.perSource.get(d.source);
    if (c === undefined) result.perSource.set(d.source, (c = { docs: 0, tokens: 0, rawTokens: 0 }));
    c.docs++;
    c.tokens += d.tokens.length;
    c.rawTokens += d.raw;
  }
}
