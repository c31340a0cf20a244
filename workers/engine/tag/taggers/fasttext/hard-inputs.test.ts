// Hard inputs for every tagger of the family: empty, blank, lone surrogates, 100k emoji, 10 MB, in linear time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tagger, TagSpan } from '../../types.js';
import { fasttextTaggers } from './index.js';
import { DEFAULT_LID_MODEL } from './model.js';
import { LANGUAGE_SAMPLES } from './samples.js';
import { doc, makeTagger } from './testing.js';

const OPTIONS: Record<string, Record<string, unknown>> = {
  language_filter: { languages: ['en'] },
  fasttext_classifier: { model_path: DEFAULT_LID_MODEL, level: 'sentence', k: 1 },
};

/** Natural multilingual text of about `bytes` UTF-8 bytes, lines of ~100 characters. */
function corpus(bytes: number): string {
  const lines: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const line = LANGUAGE_SAMPLES[i % LANGUAGE_SAMPLES.length]![1];
    lines.push(line);
    n += Buffer.byteLength(line) + 1;
  }
  return lines.join('\n');
}

function wellFormed(spans: TagSpan[], text: string): void {
  for (const s of spans) {
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeLessThanOrEqual(text.length);
    expect(s.start).toBeLessThanOrEqual(s.end);
    expect(Number.isFinite(s.score)).toBe(true);
  }
}

const taggers: Record<string, Tagger> = {};
beforeAll(async () => {
  for (const spec of fasttextTaggers) taggers[spec.name] = await makeTagger(spec.name, OPTIONS[spec.name] ?? {});
});
afterAll(async () => {
  for (const t of Object.values(taggers)) await t.close?.();
});

const SMALL: [string, string][] = [
  ['empty', ''],
  ['whitespace only', ' \n\t\u3000\n  \r\n'],
  ['lone surrogates', 'a\ud800b \udfff\n\udbff\nThe end.\ud800'],
  ['100k emoji', '😀'.repeat(100_000)],
];

describe.each(fasttextTaggers.map((s) => s.name))('%s', (name) => {
  it.each(SMALL)('%s', (_label, text) => {
    const spans = taggers[name]!.tag(doc(text));
    wellFormed(spans, text);
  });
});

describe('10 MB documents in linear time', () => {
  const big = corpus(10_000_000);
  const oneMb = corpus(1_000_000);

  it('lid176: 10 MB takes about ten times 1 MB', () => {
    const t = taggers['lid176']!;
    const time = (text: string): number => {
      const t0 = performance.now();
      wellFormed(t.tag(doc(text)), text);
      return performance.now() - t0;
    };
    time(oneMb); // warm-up
    const small = time(oneMb);
    const large = time(big);
    expect(large).toBeLessThan(small * 25 + 200);
  });

  it.each(['ft_lang_id_en_doc_v2', 'language_filter', 'eld_lang_id'])('%s', (name) => {
    const spans = taggers[name]!.tag(doc(big));
    wellFormed(spans, big);
    expect(spans.length).toBeGreaterThan(0);
  });

  it('paragraph taggers on 10 MB of 1 MB paragraphs', () => {
    const text = Array.from({ length: 10 }, () => corpus(1_000_000).replace(/\n/g, ' ')).join('\n');
    const spans = taggers['ft_lang_id_en_paragraph_with_doc_score_v2']!.tag(doc(text));
    expect(spans.filter((s) => s.type === 'en')).toHaveLength(10);
    wellFormed(spans, text);
  });

  it('sentence-level classifier on 1 MB', () => {
    const spans = taggers['fasttext_classifier']!.tag(doc(oneMb));
    expect(spans.length).toBeGreaterThan(5000);
    wellFormed(spans, oneMb);
  });
});
