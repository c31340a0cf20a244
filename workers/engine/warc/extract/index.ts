// Main-text extraction from HTML for `assay warc`: one function, several extractors chosen by name (the default by bench/warc).
import { parseDocument } from 'htmlparser2';
import { extractDensity } from './density.js';
import { extractReadability } from './readability.js';
import { renderText } from './render.js';
import { renderStream } from './stream.js';

/** All visible text, menus and footers included: what Common Crawl's WET files hold, the baseline the others must beat. */
function extractWet(html: string): string {
  return renderText(parseDocument(html));
}

const BY_NAME: Record<string, (html: string, url: string) => string> = {
  density: extractDensity,
  readability: extractReadability,
  wet: extractWet,
};

export const EXTRACTORS: readonly string[] = Object.keys(BY_NAME);

/**
 * Chosen by bench/warc (README, Performance): F1 0.987 on python3-doc and 0.997 on debian-handbook at ≈ 200 pages/s per
 * core, against readability's 0.973 / 0.820 at ≈ 12 pages/s.
 */
export const DEFAULT_EXTRACTOR = 'density';

/** The main text of `html` (fetched from `url`): `\n\n` between blocks, `\n` for `<br>`, furniture dropped. */
export function extractMainText(html: string, url: string, extractor: string = DEFAULT_EXTRACTOR): string {
  const fn = BY_NAME[extractor];
  if (!fn) throw new Error(`unknown extractor '${extractor}' (known: ${EXTRACTORS.join(', ')})`);
  try {
    return fn(html, url);
  } catch (e) {
    // The tree walks recurse once per nesting level; a page deeper than the stack still gets its visible text.
    if (e instanceof RangeError) return renderStream(html);
    throw e;
  }
}
