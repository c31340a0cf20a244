// DocStats: document length and the share of whitespace, digits, uppercase, ellipses and punctuation.
import { pyFloat, pyInt, type DocStatValues } from '../../../stats/types.js';
import { countClasses } from './pychars.js';

/**
 * DataTrove `DocStats.extract_stats`. Every ratio divides by `len(text)`, which raises on an empty
 * text upstream; here an empty text yields only `length: 0`. One pass over the code points.
 */
export function docStats(text: string): DocStatValues {
  const { len, space, nonAlphaDigit, digit, upper, punct } = countClasses(text);
  const out: DocStatValues = new Map([['length', pyInt(len)]]);
  if (len === 0) return out;
  out.set('white_space_ratio', pyFloat(space / len));
  out.set('non_alpha_digit_ratio', pyFloat(nonAlphaDigit / len));
  out.set('digit_ratio', pyFloat(digit / len));
  out.set('uppercase_ratio', pyFloat(upper / len));
  out.set('elipsis_ratio', pyFloat(ellipsisChars(text) / len));
  out.set('punctuation_ratio', pyFloat(punct / len));
  return out;
}

/** Characters inside non-overlapping `...` / `…` matches, leftmost first like `re.findall`. */
function ellipsisChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e && text.charCodeAt(i + 1) === 0x2e && text.charCodeAt(i + 2) === 0x2e) {
      n += 3;
      i += 2;
    } else if (c === 0x2026) n += 1;
  }
  return n;
}
