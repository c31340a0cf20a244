// A WARC written by wget from a local site, read completely; every document's provenance checked against warcio's reading of the same file.
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { readWarcFile, serveSite, wgetWarc, type SitePage } from './testing.js';
import { base32ToHex, warcioTruth } from './truth.js';

const prose = (topic: string): string => `<p>The ${topic} was quiet in the morning, and the people of the town walked along the river to the market.</p>`;
const doc = (title: string, body: string, head = ''): string => `<!doctype html><html><head>${head}<title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><h1>${title}</h1>${body}</main><footer>© 2024</footer></body></html>`;

const SITE: SitePage[] = [
  { path: '/', type: 'text/html; charset=utf-8', body: doc('Home', `${prose('harbour')}<a href="/a.html">a</a> <a href="/b.html">b</a> <a href="/c.html">c</a> <a href="/latin.html">l</a> <a href="/blocked.html">x</a> <a href="/logo.png">p</a> <a href="/report.pdf">r</a> <a href="/notype">n</a>`) },
  { path: '/a.html', type: 'text/html', body: doc('Bridge', prose('bridge')) },
  { path: '/b.html', type: 'text/html; charset=utf-8', body: doc('Garden', `${prose('garden')}<script>var menu = 1;</script>`) },
  { path: '/c.html', type: 'application/xhtml+xml', body: doc('Library', prose('library')) },
  { path: '/latin.html', type: 'text/html', body: Buffer.from(doc('Caf\xe9', '<p>Le caf\xe9 de la place est ouvert le matin.</p>', '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'), 'latin1') },
  { path: '/blocked.html', type: 'text/html', body: doc('Blocked', prose('station')) },
  { path: '/logo.png', type: 'image/png', body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') },
  { path: '/report.pdf', type: 'application/pdf', body: '%PDF-1.4 not really' },
  // No useful type: sniffed as HTML from its first bytes.
  { path: '/notype', type: 'application/octet-stream', body: doc('Sniffed', prose('museum')) },
];

describe('a WARC written by wget --warc-file', () => {
  it('is read completely: record counts equal what wget wrote, non-HTML counted as skipped, the blocked URL never parsed', { timeout: 60_000 }, async () => {
    const dir = scratchDir();
    const site = await serveSite(SITE);
    let file: string;
    try {
      file = await wgetWarc(site.base, dir, 'crawl');
    } finally {
      await site.close();
    }
    const truth = await warcioTruth(file);
    const r = await readWarcFile(file, dir, { urlFilter: { extra_urls: [`${site.base}blocked.html`] } });
    expect(r.logs).toEqual([]);
    // wget: warcinfo, a request and a response per URL (robots.txt included), then its metadata and log records.
    expect(r.counts.records).toBe(truth.records);
    expect(truth.records).toBeGreaterThanOrEqual(2 * (SITE.length + 1) + 1);
    expect(r.counts.nonHtml).toBe(truth.nonHtml);
    expect(r.counts.nonHtml).toBe(2);
    expect(r.counts.urlBlocked).toBe(1);
    expect(r.counts.httpStatus).toBe(1); // robots.txt: 404
    expect(r.counts.kept).toBe(truth.html.size - 1);
    expect(r.counts.kept + r.counts.nonHtml + r.counts.urlBlocked + r.counts.httpStatus + r.counts.nonResponse).toBe(r.counts.records);
    const byUrl = new Map(r.docs.map((d) => [(d.metadata as { url: string }).url, d]));
    expect(byUrl.get(`${site.base}latin.html`)?.text).toContain('Le café de la place est ouvert le matin.');
    expect((byUrl.get(`${site.base}latin.html`)?.metadata as { charset: string }).charset).toBe('windows-1252');
    expect(byUrl.get(`${site.base}b.html`)?.text).not.toContain('var menu');
    expect(byUrl.get(`${site.base}notype`)?.text).toContain('museum');

    // Provenance, for every document: the record it names has its URL, and the payload hashes to raw_html_sha1
    // (by warcio's reading and by wget's own WARC-Payload-Digest).
    for (const d of r.docs) {
      const m = d.metadata as { url: string; warc_record_id: string; raw_html_sha1: string; warc_filename: string };
      const rec = truth.html.get(m.warc_record_id);
      expect(rec, m.warc_record_id).toBeDefined();
      expect(m.url).toBe(rec?.url);
      expect(m.raw_html_sha1).toBe(rec?.sha1);
      expect(m.raw_html_sha1).toBe(base32ToHex((rec?.digest ?? '').replace(/^sha1:/, '')));
      expect(d.id).toBe(m.warc_record_id.replace(/^<urn:uuid:|>$/g, ''));
    }
  });
});
