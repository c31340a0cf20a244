// LineStats and ParagraphStats: line / paragraph counts, lengths, short/long shares, bullets, duplicates.
import { pyFloat, pyInt, type DocStatValues } from '../../../stats/types.js';
import { cpLength, pyStrip } from '../../../text/python.js';
import { findDuplicates, safeDivide, thresholdRatios } from './duplicates.js';

/** C4's END_PUNCTUATION, which `lines_ending_with_terminal_mark_ratio` tests with `endswith`. */
const END_PUNCTUATION = ['.', '?', '!', '"', "'"];
const BULLETS = new Set(['-', '*', '•']);

export interface LineStatsOptions {
  max_k_chars_per_line_tresholds: number[];
  min_k_chars_per_line_thresholds: number[];
  ignore_empty_lines: boolean;
}

/**
 * DataTrove `LineStats.extract_stats`: lines are `metadata.lines` when it is a non-empty list of
 * strings, else `text.split("\n")`. Divisions are guarded (0.0), as upstream's `_safe_divide` does.
 */
export function lineStats(text: string, metadata: Record<string, unknown>, o: LineStatsOptions): DocStatValues {
  const given = metadata.lines;
  let lines = Array.isArray(given) && given.length > 0 && given.every((l) => typeof l === 'string') ? (given as string[]) : text.split('\n');
  const nLines = lines.length;
  if (o.ignore_empty_lines) lines = lines.filter((l) => pyStrip(l).length > 0);
  const lengths = lines.map(cpLength);
  const totalChars = lengths.reduce((a, b) => a + b, 0);
  const dups = findDuplicates(lines);
  const out: DocStatValues = new Map([
    ['n_lines', pyInt(nLines)],
    ['avg_line_length', safeDivide(totalChars, lines.length)],
  ]);
  thresholdRatios(out, lengths, 'short_line_ratio_chars_', o.max_k_chars_per_line_tresholds, (len, k) => len <= k);
  thresholdRatios(out, lengths, 'long_line_ratio_chars_', o.min_k_chars_per_line_thresholds, (len, k) => len >= k);
  const terminal = lines.filter((l) => END_PUNCTUATION.some((p) => l.endsWith(p))).length;
  out.set('lines_ending_with_terminal_mark_ratio', safeDivide(terminal, lines.length));
  out.set('bullet_point_lines_ratio', safeDivide(lines.filter(isBulletLine).length, lines.length));
  out.set('line_duplicates', safeDivide(dups.elements, lines.length));
  out.set('line_char_duplicates', safeDivide(dups.chars, totalChars));
  return out;
}

function isBulletLine(line: string): boolean {
  const s = pyStrip(line);
  return s.length > 0 && BULLETS.has(String.fromCodePoint(s.codePointAt(0) as number));
}

export interface ParagraphStatsOptions {
  short_paragraph_max_chars_threshold: number[];
  long_paragraph_max_chars_threshold: number[];
}

/**
 * DataTrove `ParagraphStats.extract_stats`: paragraphs are the non-blank pieces of `text.split("\n\n")`.
 * Upstream divides by the paragraph count and raises on a text without one; here such a text
 * yields only `n_paragraphs: 0`.
 */
export function paragraphStats(text: string, o: ParagraphStatsOptions): DocStatValues {
  const paragraphs = text.split('\n\n').filter((p) => pyStrip(p).length > 0);
  const n = paragraphs.length;
  const out: DocStatValues = new Map([['n_paragraphs', pyInt(n)]]);
  if (n === 0) return out;
  const lengths = paragraphs.map(cpLength);
  const totalChars = lengths.reduce((a, b) => a + b, 0);
  const dups = findDuplicates(paragraphs);
  out.set('avg_paragraph_length', pyFloat(totalChars / n));
  thresholdRatios(out, lengths, 'short_paragraph_ratio_', o.short_paragraph_max_chars_threshold, (len, k) => len <= k);
  thresholdRatios(out, lengths, 'long_paragraph_ratio_', o.long_paragraph_max_chars_threshold, (len, k) => len >= k);
  out.set('paragraph_duplicates', pyFloat(dups.elements / n));
  out.set('paragraph_char_duplicates', pyFloat(dups.chars / totalChars));
  return out;
}
