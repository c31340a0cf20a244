// DataTrove / FineWeb filters and formatters as taggers: one attribute per rule, plus `reason_*` and `kept`.
import type { TaggerSpec } from '../../types.js';
import { c4Paragraph } from './c4-paragraph.js';
import { c4QualityTagger } from './c4-quality.js';
import { fineWebQuality } from './fineweb-quality.js';
import { gopherQuality } from './gopher-quality.js';
import { gopherRepetition } from './gopher-repetition.js';
import { piiFormatter } from './pii.js';
import { regexFilter } from './regex-filter.js';
import { symbolLinesFormatter } from './symbol-lines.js';
import { urlFilter } from './url-filter.js';

/** In FineWeb's pipeline order (URL, Gopher repetition and quality, C4, FineWeb, PII), then the extra filters. */
// Each spec has its own options type; the registry validates options before create().
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const datatroveTaggers: TaggerSpec<any>[] = [
  urlFilter,
  gopherRepetition,
  gopherQuality,
  c4QualityTagger,
  fineWebQuality,
  piiFormatter,
  c4Paragraph,
  symbolLinesFormatter,
  regexFilter,
];
