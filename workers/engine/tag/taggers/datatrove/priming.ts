// Type-feedback priming for DataTrove's quality taggers: small texts taking their rare branches before the first document.
import type { TaggerContext } from '../../types.js';
import { primeOnce, TEXTS } from '../dolma/warm-up.js';

/**
 * The Dolma priming texts, and what DataTrove's rules branch on besides: bullet and ellipsis lines, citations,
 * policy lines, "lorem ipsum", braces, javascript, a word past 1,000 characters, every line break splitlines()
 * knows, short lines and lines without terminal punctuation, repeated lines and paragraphs, stop words, an empty
 * and a blank text. Without them the first document taking such a branch late in a run deoptimises a rule
 * function V8 had compiled (gopher_quality's was compiled four times over the prose corpus, ≈ 60 ms of the
 * compiler's time each). Not a text with more distinct words than a scratch table's first size: its interpreted
 * run cost more than the one recompilation it saves.
 */
const DATATROVE_TEXTS = [
  ...TEXTS,
  [
    'The first line of a page ends here.',
    '• a bullet of the list',
    '- another bullet, and the end of the',
    'We were waiting for the...',
    'And waiting for the rest…',
    '#hashtag #another and # alone',
    'Cited fact [1] with an edit [edit] and a claim [citation needed].',
    '[2] Cited at the start, so the kept line starts with a space.',
    'Lorem ipsum dolor sit amet, with a { brace } and JavaScript in it.',
    'This site uses cookies. Read our privacy policy and terms of use!',
    'short',
    'The first line of a page ends here.',
    '',
    'A paragraph that comes twice, to be found twice by the repetition rules.',
    '',
    'A paragraph that comes twice, to be found twice by the repetition rules.',
    `A word too long ${'x'.repeat(1005)} for C4.`,
    'Lines\r\nbroken\rin\u2028every\u0085way\u000bthat\fsplitlines\x1ckeeps.',
    'Ünïcödé wörds — “quoted” 😀 emoji \ud800 lone \udc00 halves.',
  ].join('\n'),
  'the be to of and that have with the be to of and that have with. '.repeat(20),
  '',
  ' \n\t \n',
  'one',
];

/** primeOnce over DATATROVE_TEXTS. */
export function primeDataTrove(name: string, tag: (text: string) => unknown, ctx: TaggerContext): void {
  primeOnce(name, tag, ctx, DATATROVE_TEXTS);
}
