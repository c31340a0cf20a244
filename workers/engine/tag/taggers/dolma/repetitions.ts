// repetitions_v1 / paragraph_repetitions_v1 (`taggers/repetitions/repetitions_taggers.py`): repeated character groups.
import type { TaggerSpec, TagSpan } from '../../types.js';
import { MAX_UNIT, RepetitionScanner, type Repetition } from './repetitions-scan.js';
import { docOutput, spanOutput, toCodePoints } from './text.js';

/**
 * Matches of `(.+?)(\s?\1){3,}` (a unit repeated at least 4 times, optionally one whitespace apart)
 * over the whole text — repetitions may then span lines — or, with `perParagraph`, inside each
 * "\n"-terminated paragraph (empty ones included, as upstream), followed by the three document
 * statistics Dolma always adds (`keep_stats_when_empty = True`).
 */
export function repetitionSpans(text: string, perParagraph: boolean): TagSpan[] {
  const { cps, units } = toCodePoints(text);
  const scanner = new RepetitionScanner(cps);
  let found: Repetition[] = [];
  if (!perParagraph) found = scanner.scan();
  else {
    for (let start = 0; start < cps.length; ) {
      let end = start;
      while (end < cps.length && cps[end] !== 10) end++;
      end = Math.min(end + 1, cps.length);
      for (const r of scanner.scan(start, end)) found.push(r);
      start = end;
    }
  }
  const at = (cp: number) => (units === null ? cp : units[cp]!);
  const spans: TagSpan[] = found.map((r) => ({ start: at(r.start), end: at(r.end), type: 'repetition', score: r.score }));
  let maxScore = 0;
  let maxLength = 0;
  let covered = 0;
  for (const r of found) {
    maxScore = Math.max(maxScore, r.score);
    maxLength = Math.max(maxLength, r.end - r.start);
    covered += r.end - r.start;
  }
  const end = text.length;
  spans.push({ start: 0, end, type: 'doc_max_score_repetition', score: maxScore });
  spans.push({ start: 0, end, type: 'doc_max_length_repetition', score: maxLength });
  spans.push({ start: 0, end, type: 'doc_frac_repetition', score: found.length > 0 ? covered / cps.length : 0 });
  return spans;
}

const outputs = [
  spanOutput('repetition', `A unit of 1–${MAX_UNIT} characters repeated ≥ 4 times in a row (single whitespace allowed between); score = occurrences of the unit`, '≥ 4'),
  docOutput('doc_max_score_repetition', 'Highest repetition score (0 when none)', '0 or ≥ 4'),
  docOutput('doc_max_length_repetition', 'Longest repetition span in code points (0 when none)', '≥ 0'),
  docOutput('doc_frac_repetition', 'Characters inside repetition spans / text characters (0 when none)', '[0, 1]'),
];

export const repetitionsV1: TaggerSpec = {
  name: 'repetitions_v1',
  description: 'Runs of a character group repeated at least 4 times, with document maxima and coverage',
  outputs,
  create: () => ({ tag: (doc) => repetitionSpans(doc.text, false) }),
};

export const paragraphRepetitionsV1: TaggerSpec = {
  name: 'paragraph_repetitions_v1',
  description: 'repetitions_v1 inside each paragraph (repetitions never cross a newline), with document stats',
  outputs,
  create: () => ({ tag: (doc) => repetitionSpans(doc.text, true) }),
};
