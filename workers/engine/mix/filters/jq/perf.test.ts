import { afterAll, expect, it } from 'vitest';
import type { Json } from '../types.js';
import { compileJqRule, disposeJq } from './index.js';

afterAll(() => disposeJq());

const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor'.split(' ');

/** A Dolma-shaped document of about 3.5 KB with a few span attributes; deterministic per seed. */
function makeDocs(n: number): { docs: Json[]; scores: number[]; bytes: number } {
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const scores: number[] = [];
  const docs: Json[] = Array.from({ length: n }, (_, i) => {
    let text = '';
    while (text.length < 3300) text += WORDS[Math.floor(rnd() * WORDS.length)] + ' ';
    const score = rnd();
    scores.push(score);
    return {
      id: String(i),
      text,
      source: 'cc',
      added: '2024-01-01T00:00:00Z',
      metadata: { url: `https://example.com/${i}`, length: text.length },
      attributes: { x: [[0, text.length, score]], y: [[0, 10, rnd()], [10, 20, rnd()]], z: [[0, text.length, 1]] },
    };
  });
  return { docs, scores, bytes: docs.reduce<number>((a, d) => a + JSON.stringify(d).length, 0) };
}

it('evaluates `.attributes.x[0][2] > 0.5` on ~3.5 KB documents at thousands of docs/s', () => {
  const { docs, scores, bytes } = makeDocs(2048);
  const rule = compileJqRule('.attributes.x[0][2] > 0.5', 'include');
  rule.evaluate(docs.slice(0, 256)); // warm-up: the worker and jq's first compile
  const t = performance.now();
  const result = rule.evaluate(docs);
  const sec = (performance.now() - t) / 1000;
  expect(result).toEqual(scores.map((s) => s > 0.5));
  const docsPerSec = docs.length / sec;
  console.log(`jq rule: ${Math.round(docsPerSec)} docs/s, ${(bytes / sec / 1e6).toFixed(1)} MB/s (avg ${Math.round(bytes / docs.length)} B/doc, batches of 256)`);
  // A floor far below what one core does (≈17k docs/s measured), so a busy machine does not fail it.
  expect(docsPerSec).toBeGreaterThan(1000);
});
