// The extraction bench's measuring sticks: bag-of-words overlap with multiplicity, and the truth query's word boundaries.
import { describe, expect, it } from 'vitest';
import { overlap, prf } from './score.js';
import { truthText } from './truth.js';

describe('bench/warc scoring', () => {
  it('counts common tokens with multiplicity, case-folded, punctuation ignored', () => {
    const o = overlap('The cat, the CAT. Menu', 'the cat sat');
    expect(o).toEqual({ extracted: 5, truth: 3, common: 2 });
    const s = prf(o);
    expect(s.p).toBeCloseTo(0.4);
    expect(s.r).toBeCloseTo(2 / 3);
    expect(s.f1).toBeCloseTo(0.5);
  });

  it('scores an empty extraction as zero, not as a division by zero', () => {
    expect(prf(overlap('', 'some truth'))).toEqual({ p: 0, r: 0, f1: 0 });
  });

  it('takes the truth from the selected element only, words split at blocks and joined across inline tags', () => {
    const html = '<body><div class="nav">Menu</div><div role="main"><h1>Ti<b>tle</b></h1><p>one</p><p>two</p><script>x</script></div></body>';
    expect(truthText(html, 'div[role=main]')?.split(/\s+/).filter(Boolean)).toEqual(['Title', 'one', 'two']);
    expect(truthText(html, 'div.missing')).toBeNull();
  });
});
