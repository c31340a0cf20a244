// Shared shape of Dolma's two dedupe modes: the filter they probe and the span rows they produce.
import type { BloomFilter, KeyEncoder } from '../bloom/index.js';

/** `[start, end, score]` in code points (document mode: end is the key's UTF-8 byte length, as Dolma). */
export type Span = [number, number, number];

export interface ModeContext {
  filter: BloomFilter;
  enc: KeyEncoder;
  readOnly: boolean;
  numPartitions: number;
  partitionIndex: number;
}

/** One document's attribute value: spans (possibly `[]`) or `undefined` for "no key at all". */
export type ApplyMode = (record: Record<string, unknown>, file: string, line: number) => Span[] | undefined;

/** Dolma's `build_hashes` partition test on the first hash (spec §4.5). */
export function inPartition(ctx: ModeContext, h0: bigint): boolean {
  return ctx.numPartitions === 1 || Number(h0 % BigInt(ctx.numPartitions)) === ctx.partitionIndex;
}
