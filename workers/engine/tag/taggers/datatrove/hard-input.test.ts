// Hostile inputs finish in linear time for every DataTrove tagger; throughput of the FineWeb filters on one core.
import { describe, expect, it } from 'vitest';
import type { Tagger, TagSpan } from '../../types.js';
import { datatroveTaggers } from './index.js';

const OPTIONS: Record<string, object> = { regex_filter: { regex_exp: 'copyright' } };

async function make(name: string): Promise<Tagger> {
  const spec = datatroveTaggers.find((s) => s.name === name);
  if (!spec) throw new Error(name);
  return spec.create(spec.options?.parse(OPTIONS[name] ?? {}) ?? {}, { seed: 0, cwd: '.' });
}

function run(t: Tagger, text: string): { ms: number; spans: TagSpan[] } {
  const t0 = performance.now();
  const spans = t.tag({ id: 'x', text, source: '', metadata: { url: 'https://example.com/a' }, record: {} }) as TagSpan[];
  return { ms: performance.now() - t0, spans };
}

let seed = 3;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const VOCAB = ['the', 'of', 'and', 'to', 'with', 'that', 'have', 'be', 'history', 'science', 'river', 'however', "don't", 'U.S.', 'e-mail', '(see', 'below)', '"quoted"', 'a@b.com', '8.8.8.8', '[1]'];
/** English-like documents: lines of 4–24 words, 70% ending with a period. */
function englishDocs(totalChars: number, docChars = 4000): string[] {
  const docs: string[] = [];
  let total = 0;
  while (total < totalChars) {
    let d = '';
    while (d.length < docChars) {
      const n = 4 + rnd(20);
      const words = Array.from({ length: n }, () => VOCAB[rnd(VOCAB.length)] + (rnd(10) === 0 ? ',' : ''));
      d += words.join(' ') + (rnd(10) < 7 ? '.' : '') + '\n';
    }
    docs.push(d);
    total += d.length;
  }
  return docs;
}

const wellFormed = (spans: TagSpan[], len: number) =>
  spans.every((s) => s.start >= 0 && s.start <= s.end && s.end <= len && Number.isFinite(s.score) && s.type.length > 0);

describe('hard inputs', () => {
  const MB = 1_000_000;
  const small: Record<string, string> = {
    empty: '',
    whitespace: ' \n\t\r\u00a0\u3000'.repeat(MB / 6),
    loneSurrogates: '\ud800x\udc00 \udfff'.repeat(MB / 5),
    emoji100k: '😀'.repeat(100_000),
    emojiWords: '😀 '.repeat(100_000),
  };
  const big = englishDocs(10 * MB, 10 * MB).join('');

  for (const spec of datatroveTaggers) {
    it(`${spec.name}: empty, whitespace, lone surrogates, 100k emoji, 10 MB`, async () => {
      const t = await make(spec.name);
      for (const [what, text] of Object.entries(small)) {
        const r = run(t, text);
        expect(wellFormed(r.spans, text.length), what).toBe(true);
        expect(r.ms, `${spec.name} on ${what}`).toBeLessThan(10_000);
      }
      const r = run(t, big);
      expect(wellFormed(r.spans, big.length)).toBe(true);
      expect(big.length / 1e6 / (r.ms / 1000), `${spec.name} MB/s on 10 MB`).toBeGreaterThan(1);
    });
  }

  /** Adversarial shapes for the tokenizer, the line logic and the PII matchers. */
  const SHAPES: Record<string, (n: number) => string> = {
    parens: (n) => '('.repeat(n / 2) + ')'.repeat(n / 2),
    hyphens: (n) => 'a-'.repeat(n / 2),
    ats: (n) => 'a.b@'.repeat(n / 4),
    newlines: (n) => '\n'.repeat(n),
    dots: (n) => '. '.repeat(n / 2),
    citations: (n) => '[1] x\n'.repeat(n / 6),
    emailish: (n) => 'a@b.c-'.repeat(n / 6),
  };
  for (const name of ['gopher_repetition', 'gopher_quality', 'c4_quality', 'fineweb_quality', 'pii_formatter', 'symbol_lines_formatter']) {
    it(`${name} scales linearly on adversarial shapes`, async () => {
      const t = await make(name);
      for (const [shape, gen] of Object.entries(SHAPES)) {
        const a = run(t, gen(250_000)).ms;
        const b = run(t, gen(1_000_000)).ms;
        expect(b, `${name} on ${shape}: ${a.toFixed(0)} ms → ${b.toFixed(0)} ms for 4× the input`).toBeLessThan(10 * a + 250);
      }
    });
  }
});

describe('throughput on ~20 MB of English-like text (one core)', () => {
  it('fineweb_quality, gopher_quality, gopher_repetition', async () => {
    const docs = englishDocs(20_000_000);
    const total = docs.reduce((n, d) => n + d.length, 0);
    const lines: string[] = [];
    for (const name of ['fineweb_quality', 'gopher_quality', 'gopher_repetition']) {
      const t = await make(name);
      const t0 = performance.now();
      for (const d of docs) t.tag({ id: 'x', text: d, source: '', metadata: {}, record: {} });
      const mbps = total / 1e6 / ((performance.now() - t0) / 1000);
      lines.push(`  ${name}: ${mbps.toFixed(1)} MB/s`);
      expect(mbps).toBeGreaterThan(1);
    }
    process.stdout.write(`DataTrove filters on ${(total / 1e6).toFixed(1)} MB in ${docs.length} documents:\n${lines.join('\n')}\n`);
  });
});
