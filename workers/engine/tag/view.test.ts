// The shared document view: one computation per document, and values equal to what each tagger computes alone.
import { describe, expect, it } from 'vitest';
import { splitIntoSentences, sentenceSpans } from '../text/sentences.js';
import { splitIntoWords } from '../text/words.js';
import { c4Quality, c4QualityOptions } from './taggers/datatrove/c4-quality.js';
import { forEachLine, stripRange } from './taggers/datatrove/lines.js';
import { DocView, viewOf } from './view.js';

const TEXTS = [
  'A first line here. And a second sentence!\nShort\n\nThe third line [1] has a citation [edit] in it.\r\nLast line, no end',
  'Dr. Smith went to Washington. He said "hi."  Then   left…\u2028Unicode line separator here. Next one.',
  '  leading space line. Two sentences? Yes!\n\ttabbed line with words in it.\n{ curly } line is here.\nlorem ipsum dolor sit amet.',
  'one\ntwo words\nthree words here\nfour words are here.\n',
  '',
];

describe('viewOf', () => {
  it('hands every caller the same view of a text, and computes each form once', () => {
    const text = 'Some words, here.';
    expect(viewOf(text)).toBe(viewOf(text));
    let calls = 0;
    const v = new DocView(text);
    const make = () => ++calls;
    expect([v.get('k', make), v.get('k', make)]).toEqual([1, 1]);
    expect(calls).toBe(1);
  });

  it('words are split_into_words, the same array for every tagger of the pass', () => {
    for (const t of TEXTS) {
      expect(viewOf(t).words('eng', 'head')).toEqual(splitIntoWords(t));
      expect(viewOf(t).words('eng', 'head')).toBe(viewOf(t).words('eng', 'head'));
    }
  });
});

describe('c4_quality on the shared tokens', () => {
  const o = c4QualityOptions.parse({ filter_no_terminal_punct: false, min_words_per_line: 1 });

  it("counts the rewritten text's words from the kept lines' tokens: len(split_into_words(text after C4))", () => {
    for (const t of TEXTS) {
      const r = c4Quality(t, o);
      expect(r.words).toBe(splitIntoWords(r.text).length);
    }
  });

  it("counts each kept line's sentences as spaCy does on the line alone", () => {
    const strict = c4QualityOptions.parse({ filter_no_terminal_punct: false, min_words_per_line: 1, min_num_sentences: 100 });
    for (const t of TEXTS) {
      let expected = 0;
      forEachLine(t, (start, end) => {
        const [a, b] = stripRange(t, start, end);
        const line = t.slice(a, b).replace(/\[\p{Nd}*\]|\[edit\]|\[citation needed\]/gu, '');
        if (splitIntoWords(line).length === 0 || /lorem ipsum|javascript|\{/i.test(line)) return;
        expected += Math.max(1, sentenceSpans(line).length);
      });
      const value = c4Quality(t, strict).outcomes.find((x) => x.rule === 'too_few_sentences')?.value;
      if (!/lorem|\{/.test(t)) expect(value).toBe(expected);
    }
    expect(splitIntoSentences('One here. Two there.')).toHaveLength(2);
  });
});
