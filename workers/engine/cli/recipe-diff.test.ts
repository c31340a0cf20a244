// The recipe diff's headline: documents for one stream, (stream, document) fates when streams differ or overlap.
import { describe, expect, it } from 'vitest';
import type { DiffGroup, RecipeDiffResult } from '../../../shared/contract/preview.js';
import { formatRecipeDiff } from './recipe-diff.js';

const group = (stream: string, docs: number): DiffGroup => ({ stream, change: 'kept→outside', from: { fate: 'kept' }, to: { fate: 'outside' }, sampleIds: [], docs, tokens: 0, bySource: {} });
const result = (groups: DiffGroup[]): RecipeDiffResult => ({
  docs: 135,
  changed: { docs: groups.reduce((a, g) => a + g.docs, 0), tokens: 0 },
  byChange: {},
  bySource: {},
  groups,
  kept: { old: { docs: 0, tokens: 0 }, new: { docs: 0, tokens: 0 } },
  ruleMap: [],
  elapsedMs: 1,
});

describe('formatRecipeDiff', () => {
  it('never says more documents change than there are', () => {
    expect(formatRecipeDiff(result([group('a', 40)]), 'old.yaml', 'new.yaml')).toMatch(/^old\.yaml → new\.yaml: 40 of 135 documents change fate/);
    // Streams renamed between recipes: each document leaves one stream and enters the other.
    expect(formatRecipeDiff(result([group('fineweb', 135), group('tunable', 135)]), 'a', 'b')).toMatch(/^a → b: 270 \(stream, document\) fates change over 135 documents in 2 streams/);
  });
});
