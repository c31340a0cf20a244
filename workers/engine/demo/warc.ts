// The demo's WARC part: some of its clean web pages as HTML (navigation, sidebar, cookie banner and footer around the text) in a Common Crawl-style WARC.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { DemoDocument } from './generate.js';

/** Where the demo keeps it: a source for the Sources dialog or `assay warc`, outside documents/. */
export const DEMO_WARC = 'raw/demo-pages.warc.gz';
const DATE = '2024-02-20T10:00:00Z';

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A stable record id per URL and seed, so the same demo has the same WARC byte for byte. */
function recordId(seed: number, uri: string): string {
  const h = createHash('sha1').update(`${seed}:${uri}`).digest('hex');
  return `<urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}>`;
}

function record(type: string, uri: string, contentType: string, block: Buffer, seed: number): Buffer {
  const head = ['WARC/1.1', `WARC-Type: ${type}`, `WARC-Record-ID: ${recordId(seed, `${type}:${uri}`)}`, `WARC-Date: ${DATE}`, ...(uri ? [`WARC-Target-URI: ${uri}`] : []), `Content-Type: ${contentType}`, `Content-Length: ${block.length}`];
  return Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n'), block, Buffer.from('\r\n\r\n')]);
}

function response(uri: string, mime: string, body: Buffer, seed: number): Buffer {
  const http = Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: ${mime}\r\nContent-Length: ${body.length}\r\n\r\n`), body]);
  return record('response', uri, 'application/http; msgtype=response', http, seed);
}

/** The page a crawler would have fetched: the document's paragraphs inside a site's furniture, which extraction must drop. */
export function demoPageHtml(doc: DemoDocument): string {
  const paragraphs = doc.text.split(/\n+/);
  const title = (paragraphs[0] ?? '').split(/\s+/).slice(0, 6).join(' ');
  return [
    '<!doctype html><html><head><meta charset="utf-8"><title>', escape(title), ' | Demo Site</title><script>var tracking = 1;</script></head><body>',
    '<div class="cookie-banner">We use cookies to improve your experience. <a href="/privacy">Accept</a></div>',
    '<nav><a href="/">Home</a> · <a href="/news">News</a> · <a href="/about">About</a> · <a href="/contact">Contact</a></nav>',
    '<main><article><h1>', escape(title), '</h1>', ...paragraphs.map((p) => `<p>${escape(p)}</p>`), '</article></main>',
    '<aside class="related"><h3>Related posts</h3><ul><li><a href="/a">Ten tips</a></li><li><a href="/b">Our story</a></li></ul></aside>',
    '<footer>© 2024 Demo Site · <a href="/terms">Terms</a> · <a href="/privacy">Privacy</a></footer></body></html>',
  ].join('');
}

/**
 * A warcinfo record, one response per page (each record its own gzip member, as Common Crawl writes them), and
 * two responses extraction skips (robots.txt and an image), so the summary shows non-HTML being counted.
 */
export function demoWarc(pages: readonly DemoDocument[], seed: number): Buffer {
  const records = [
    record('warcinfo', '', 'application/warc-fields', Buffer.from('software: assay demo\r\nformat: WARC File Format 1.1\r\n'), seed),
    response('https://demo.example/robots.txt', 'text/plain', Buffer.from('User-agent: *\nAllow: /\n'), seed),
    ...pages.map((d) => response(d.metadata.url, 'text/html; charset=utf-8', Buffer.from(demoPageHtml(d)), seed)),
    response('https://demo.example/logo.png', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), seed),
  ];
  return Buffer.concat(records.map((r) => gzipSync(r)));
}
