// Dolma's built-in pure-logic taggers under their Dolma names, for the tagger registry.
import type { TaggerSpec } from '../../types.js';
import { domainBlocklistV1, urlBlocklistV1 } from './blocklist.js';
import { c4V1, c4V2 } from './c4.js';
import { gopherV1 } from './gopher.js';
import { charLengthStripWsV1, charLengthV1, charLengthWithParagraphsV1, whitespaceTokenizerV1, whitespaceTokenizerWithParagraphsV1 } from './length.js';
import { piiRegexV1, piiRegexV2, piiRegexWithCountsFastV2 } from './pii.js';
import { notAlphanumParagraphV1 } from './punctuation.js';
import { randomNumberV1 } from './random.js';
import { paragraphRepetitionsV1, repetitionsV1 } from './repetitions.js';

/** Length and sampling first, then quality heuristics, PII, repetitions, and the list-driven URL taggers. */
// The blocklist specs carry their own option type; the registry validates options before create().
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const dolmaTaggers: TaggerSpec<any>[] = [
  charLengthV1,
  charLengthWithParagraphsV1,
  charLengthStripWsV1,
  whitespaceTokenizerV1,
  whitespaceTokenizerWithParagraphsV1,
  randomNumberV1,
  gopherV1,
  c4V1,
  c4V2,
  piiRegexV1,
  piiRegexV2,
  piiRegexWithCountsFastV2,
  repetitionsV1,
  paragraphRepetitionsV1,
  notAlphanumParagraphV1,
  urlBlocklistV1,
  domainBlocklistV1,
];
