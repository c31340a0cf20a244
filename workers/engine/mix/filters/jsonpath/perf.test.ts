// Throughput of the guarded span rule on parsed documents (target ≥ 1 M evaluations/s per core).

import { describe, expect, it } from 'vitest';
import type { Json } from '../types.js';
import { compileJsonPathRule } from './index.js';

/** Documents as the mixer holds them: JSON.parse of JSONL lines with ~12 attribute keys. */
function corpus(n: number): Json[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const attributes: Record<string, Json> = {};
    for (let a = 0; a < 10; a++) attributes[`tagger_${a}__tagger_${a}__score`] = [[0, 3000, ((i * 7 + a) % 100) / 100]];
    if (i % 5 !== 0) attributes.k = [[0, 3000, (i % 100) / 100], [3000, 3100, 1]];
    if (i % 11 === 0) attributes.k = [];
    attributes.spans = [[0, 10, 1], [20, 30, 0]];
    lines.push(JSON.stringify({ id: `doc-${i}`, text: 'lorem ipsum '.repeat(250), source: 'cc', attributes }));
  }
  return lines.map((l) => JSON.parse(l) as Json);
}

/** Evaluations per second over `rounds` passes of `docs`, best of three runs (the VM is noisy). */
function rate(expr: string, docs: readonly Json[], rounds: number): { perSecond: number; matched: number } {
  const rule = compileJsonPathRule(expr, 'exclude');
  let best = 0;
  let matched = 0;
  for (let run = 0; run < 3; run++) {
    matched = 0;
    const start = process.hrtime.bigint();
    for (let r = 0; r < rounds; r++) for (const hit of rule.evaluate(docs)) if (hit) matched++;
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    best = Math.max(best, (rounds * docs.length) / seconds);
  }
  return { perSecond: best, matched: matched / rounds };
}

describe('speed', () => {
  const docs = corpus(10_000);

  it('guarded span rule: ≥ 1 M evaluations/s', () => {
    const { perSecond, matched } = rate('$.attributes[?(@.k && @.k[0] && @.k[0][2] < 0.5)]', docs, 30);
    // Scores i%100/100 < 0.5 on docs with a non-empty k: a fixed, checkable count.
    const expected = docs.filter((_, i) => i % 5 !== 0 && i % 11 !== 0 && i % 100 < 50).length;
    expect(matched).toBe(expected);
    console.log(`guarded span rule: ${(perSecond / 1e6).toFixed(1)} M evals/s`);
    expect(perSecond).toBeGreaterThan(1_000_000);
  });

  it('plain path and general path rules stay fast too', () => {
    const plain = rate('$.attributes.k', docs, 30);
    const general = rate('$.attributes.spans[?(@[2] > 0.5)]', docs, 10);
    console.log(`plain path: ${(plain.perSecond / 1e6).toFixed(1)} M evals/s; array filter: ${(general.perSecond / 1e6).toFixed(1)} M evals/s`);
    expect(plain.matched).toBe(docs.filter((_, i) => i % 5 !== 0 || i % 11 === 0).length);
    expect(general.matched).toBe(docs.length);
    expect(plain.perSecond).toBeGreaterThan(1_000_000);
    expect(general.perSecond).toBeGreaterThan(200_000);
  });
});
