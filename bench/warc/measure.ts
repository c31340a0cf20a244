// One extractor over one corpus's cached pages: extraction timed alone, then scored against the truth (per page and summed).
import { readFileSync } from 'node:fs';
import { extractMainText } from '../../workers/engine/warc/extract/index.js';
import { add, overlap, prf, type Overlap } from './score.js';

export interface CachedPage { url: string; html: string; truth: string }

export interface Measurement {
  extractor: string;
  pages: number;
  bytes: number;
  sec: number;
  /** Token counts summed over pages (micro-averaged scores). */
  sum: Overlap;
  /** Per-page precision, recall and F1 summed (divided by `pages` for the per-page means). */
  perPage: { p: number; r: number; f1: number };
}

export function measure(cacheFile: string, extractor: string): Measurement {
  const pages = JSON.parse(readFileSync(cacheFile, 'utf8')) as CachedPage[];
  // One untimed pass first, so the timed one sees warm code, as a long `assay warc` run does.
  for (const p of pages.slice(0, 20)) extractMainText(p.html, p.url, extractor);
  const texts: string[] = [];
  let bytes = 0;
  const t = performance.now();
  for (const p of pages) texts.push(extractMainText(p.html, p.url, extractor));
  const sec = (performance.now() - t) / 1000;
  let sum: Overlap = { extracted: 0, truth: 0, common: 0 };
  const perPage = { p: 0, r: 0, f1: 0 };
  pages.forEach((p, i) => {
    bytes += Buffer.byteLength(p.html);
    const o = overlap(texts[i] as string, p.truth);
    sum = add(sum, o);
    const s = prf(o);
    perPage.p += s.p;
    perPage.r += s.r;
    perPage.f1 += s.f1;
  });
  return { extractor, pages: pages.length, bytes, sec, sum, perPage };
}
