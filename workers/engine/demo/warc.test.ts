// The demo's WARC: every page is read back by `assay warc` (kept, with its URL and record id), the furniture is not in the text, the rest is counted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonlFile, scratchDir } from '../testing.js';
import { runWarc } from '../warc/index.js';
import { generateDocuments } from './generate.js';
import { demoWarc } from './warc.js';

describe('demo WARC', () => {
  it('extracts to one document per page with the page text and provenance, skipping robots.txt and the image', async () => {
    const dir = scratchDir();
    const pages = generateDocuments(200, 7).filter((d) => d.source === 'web' && d.metadata.planted === 'clean').slice(0, 6);
    const bytes = demoWarc(pages, 7);
    expect(demoWarc(pages, 7).equals(bytes)).toBe(true);
    writeFileSync(join(dir, 'demo.warc.gz'), bytes);
    const s = await runWarc({ documents: [join(dir, 'demo.warc.gz')], destination: join(dir, 'ws'), urlFilter: false });
    expect(s.totals).toMatchObject({ kept: 6, nonHtml: 2, malformed: 0 });
    const docs = readJsonlFile(join(dir, 'ws/documents/demo.jsonl.gz'));
    expect(docs.map((d) => (d.metadata as { url: string }).url)).toEqual(pages.map((p) => p.metadata.url));
    for (const [k, d] of docs.entries()) {
      const page = pages[k];
      // Every paragraph of the page survives extraction whole, each as its own block.
      for (const para of page?.text.split(/\n+/) ?? []) expect((d.text as string).split('\n\n')).toContain(para);
      expect(d.text).not.toMatch(/cookies|Related posts|© 2024|Home · News/);
      expect((d.metadata as { warc_record_id: string }).warc_record_id).toMatch(/^<urn:uuid:[0-9a-f-]{36}>$/);
    }
  });
});
