// A WARC written by webrecorder's warcio (an independent writer, per-record gzip like Common Crawl), read completely.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { readWarcFile } from './testing.js';
import { warcioTruth } from './truth.js';

async function* body(s: string | Uint8Array): AsyncGenerator<Uint8Array> {
  yield typeof s === 'string' ? new TextEncoder().encode(s) : s;
}

const pages = [
  ['http://example.org/one', 'text/html; charset=utf-8', '<html><body><p>The first page tells of a bridge over the river.</p></body></html>'],
  ['http://example.org/two', 'text/html', '<html><head><meta charset="utf-8"></head><body><article><p>The second page is about a garden in summer.</p></article></body></html>'],
  ['http://example.org/data.json', 'application/json', '{"not": "html"}'],
  ['http://example.org/three', 'text/html; charset=utf-8', '<html><body><p>Ünïcödé text about a mountain village.</p></body></html>'],
] as const;

describe('a WARC written by warcio', () => {
  it('is read completely, in WARC/1.0 and 1.1: record counts equal what warcio wrote, non-HTML skipped, provenance matches', async () => {
    for (const warcVersion of ['WARC/1.0', 'WARC/1.1'] as const) {
      const dir = scratchDir();
      const records: WARCRecord[] = [WARCRecord.createWARCInfo({ filename: 'test.warc.gz', warcVersion }, { software: 'warcio.js' })];
      for (const [url, type, html] of pages) {
        records.push(WARCRecord.create({ url, type: 'request', warcVersion, statusline: 'GET / HTTP/1.1', httpHeaders: { Host: 'example.org' } }, body('')));
        records.push(WARCRecord.create({ url, type: 'response', warcVersion, statusline: 'HTTP/1.1 200 OK', httpHeaders: { 'Content-Type': type } }, body(html)));
      }
      records.push(WARCRecord.create({ url: 'http://example.org/gone', type: 'response', warcVersion, statusline: 'HTTP/1.1 404 Not Found', httpHeaders: { 'Content-Type': 'text/html' } }, body('<p>gone</p>')));
      records.push(WARCRecord.create({ url: 'urn:test:note', type: 'resource', warcVersion, warcHeaders: { 'Content-Type': 'text/plain' } }, body('a note')));
      const file = join(dir, 'warcio.warc.gz');
      const parts = await Promise.all(records.map((r) => WARCSerializer.serialize(r, { gzip: true })));
      writeFileSync(file, Buffer.concat(parts));

      const truth = await warcioTruth(file);
      const r = await readWarcFile(file, dir);
      expect(r.logs).toEqual([]);
      expect(r.counts.records).toBe(records.length);
      expect(truth.records).toBe(records.length);
      expect(r.counts).toMatchObject({ kept: 3, nonHtml: 1, httpStatus: 1, nonResponse: 1 + pages.length + 1 });
      expect(r.docs.map((d) => d.text)).toEqual(['The first page tells of a bridge over the river.', 'The second page is about a garden in summer.', 'Ünïcödé text about a mountain village.']);
      for (const d of r.docs) {
        const m = d.metadata as { url: string; warc_record_id: string; raw_html_sha1: string };
        expect(truth.html.get(m.warc_record_id)).toEqual(expect.objectContaining({ url: m.url, sha1: m.raw_html_sha1 }));
      }
    }
  });
});
