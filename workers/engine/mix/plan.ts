// Turn streams into shard tasks: Dolma's size-packed shards (shuffle: true) or one output per input.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { MixerConfig, StreamConfig } from '../../../shared/recipe/schema.js';
import { AssayError } from '../errors.js';
import { expandGlobs, extForCodec, mixerUnshuffledOutputPath, parseCodecName, shardName, type Codec } from '../io/index.js';
import type { ShardTask } from './shard.js';

export interface StreamPlan {
  stream: number;
  name: string;
  inputs: { path: string; size: number }[];
  tasks: ShardTask[];
  inputCodec: Codec | undefined;
  outputCodec: Codec | undefined;
}

export function codecsOf(stream: StreamConfig, field: string): { input: Codec | undefined; output: Codec | undefined } {
  const parse = (v: string | null | undefined, key: string): Codec | undefined => {
    if (v === undefined || v === null) return undefined;
    try {
      return parseCodecName(v);
    } catch (e) {
      throw new AssayError('CONFIG', (e as Error).message, { field: `${field}.compression.${key}` });
    }
  };
  return { input: parse(stream.compression?.input, 'input'), output: parse(stream.compression?.output, 'output') };
}

/** `log` hears of folder links the document globs do not follow (see GlobOptions.onNote). */
export async function planStreams(config: MixerConfig, cwd: string, log?: (message: string) => void): Promise<StreamPlan[]> {
  const plans: StreamPlan[] = [];
  for (const [s, stream] of config.streams.entries()) {
    const field = `streams[${s}]`;
    const s3 = [...stream.documents, stream.output.path].find((p) => /^s3:\/\//i.test(p));
    if (s3) throw new AssayError('CONFIG', `S3 paths are not supported yet (${s3}); download the data first`, { field });
    const paths = await expandGlobs(stream.documents, { cwd, onNote: log });
    if (paths.length === 0) {
      throw new AssayError('CONFIG', `no documents match ${stream.documents.map((d) => `'${d}'`).join(', ')}`, { field: `${field}.documents` });
    }
    // Absolute paths, so pool workers (whose cwd may differ) open the same files.
    const inputs = await Promise.all(paths.map(async (p) => {
      const path = resolve(cwd, p);
      return { path, size: (await stat(path)).size };
    }));
    const codecs = codecsOf(stream, field);
    const tasks = config.shuffle
      ? packShards(s, stream, inputs, codecs.output)
      : inputs.map((inp, index) => ({ stream: s, index, inputs: [inp.path], output: mixerUnshuffledOutputPath(stream.output.path, inp.path) }));
    plans.push({ stream: s, name: stream.name, inputs, tasks, inputCodec: codecs.input, outputCodec: codecs.output });
  }
  return plans;
}

/**
 * Dolma's greedy packing on on-disk input sizes (src/shard.rs split_streams). Unlike Dolma, an
 * empty input after the first is kept in its shard rather than silently skipped (spec §2.5).
 */
export function packShards(
  stream: number,
  cfg: StreamConfig,
  inputs: readonly { path: string; size: number }[],
  outputCodec: Codec | undefined,
): ShardTask[] {
  const budget = cfg.output.max_size_in_bytes;
  const groups: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const inp of inputs) {
    if (current.length > 0 && size + inp.size > budget) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(inp.path);
    size += inp.size;
  }
  if (current.length > 0) groups.push(current);
  const ext = extForCodec(outputCodec ?? 'gzip');
  return groups.map((group, index) => ({
    stream,
    index,
    inputs: group,
    output: shardName(cfg.output.path, cfg.name, index, index === groups.length - 1, ext),
  }));
}
