// Loads a corpus's pages with their truth: from the wget WARC when one could be built, else straight from the HTML files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWarc, type Corpus } from './corpus.js';
import type { CachedPage } from './measure.js';
import { truthText } from './truth.js';

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
  const raw = c.files.map((f) => ({ url: `http://127.0.0.1/${f}`, html: readFileSync(join(c.root, f), 'utf8') }));
  const from = warc ? `read from the HTML files (WARC ${warc} written by wget, not read back)` : 'read from the HTML files (no wget)';
  return { pages: withTruth(raw, c.selector), from };
}
