// Loads a corpus's pages with their truth: from the wget WARC when one could be built, else straight from the HTML files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWarc, type Corpus } from './corpus.js';
import type { CachedPage } from './measure.js';
import { truthText } from './truth.js';
import { readWarcPages } from './warc-read.js';

export interface Loaded { pages: CachedPage[]; from: string }

/** Pages without the main content element (none in either corpus today) are left out: they have no truth to score against. */
function withTruth(raw: { url: string; html: string }[], selector: string): CachedPage[] {
  const out: CachedPage[] = [];
  for (const r of raw) {
    const truth = truthText(r.html, selector);
    if (truth !== null) out.push({ ...r, truth });
  }
  return out;
}

export async function loadPages(c: Corpus): Promise<Loaded> {
  const warc = await buildWarc(c);
  if (warc === null) {
    const raw = c.files.map((f) => ({ url: `http://127.0.0.1/${f}`, html: readFileSync(join(c.root, f), 'utf8') }));
    return { pages: withTruth(raw, c.selector), from: 'read from the HTML files (no wget to build a WARC)' };
  }
  const w = await readWarcPages(warc);
  if (w.pages.length !== c.files.length) throw new Error(`${warc}: ${w.pages.length} HTML responses for ${c.files.length} pages fetched`);
  return { pages: withTruth(w.pages, c.selector), from: `read back from wget's WARC (${w.records} records, ${w.responses} responses)` };
}
