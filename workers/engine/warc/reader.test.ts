// Reading hand-built WARCs: the three layouts, and damaged input giving counted, logged skips (never a crash or a silent stop).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { httpBlock, perRecordGzip, readWarcFile, warcRecord } from './testing.js';

const page = (title: string, words = 'a river runs through the old town'): string => `<html><head><title>${title}</title></head><body><nav>Menu</nav><p>${title}: ${words}.</p></body></html>`;
const html = (n: number, body = page(`Page ${n}`)): Buffer => warcRecord('response', `http://example.com/${n}`, httpBlock(200, { 'Content-Type': 'text/html; charset=utf-8' }, body), { id: `00000000-0000-0000-0000-00000000000${n}` });

function write(dir: string, name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('WARC layouts', () => {
  it('plain, whole-file gzip and per-record gzip members give the same documents', async () => {
    const dir = scratchDir();
    const records = [warcRecord('warcinfo', '', Buffer.from('software: test\r\n')), html(1), html(2), html(3)];
    const runs = await Promise.all([
      readWarcFile(write(dir, 'plain.warc', Buffer.concat(records)), dir),
      readWarcFile(write(dir, 'whole.warc.gz', gzipSync(Buffer.concat(records))), dir),
      readWarcFile(write(dir, 'members.warc.gz', perRecordGzip(records)), dir),
    ]);
    for (const r of runs) {
      expect(r.counts).toMatchObject({ records: 4, nonResponse: 1, kept: 3, malformed: 0, truncated: 0 });
      expect(r.docs.map((d) => d.id)).toEqual(['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000003']);
      expect(r.docs[0]?.text).toContain('Page 1: a river runs through the old town.');
    }
  });

  it("WET files: conversion records' text is the document as it is (no extraction), with the same checks and metadata", async () => {
    const dir = scratchDir();
    const wet = (n: number, text: Buffer | string, contentType = 'text/plain'): Buffer =>
      warcRecord('conversion', `http://example.com/${n}`, Buffer.from(text), { id: `00000000-0000-0000-0000-00000000000${n}`, contentType });
    const records = [
      warcRecord('warcinfo', '', Buffer.from('software: test\r\n'), { contentType: 'application/warc-fields' }),
      // Text that looks like markup stays text: no extractor runs, and a <meta> in it declares nothing.
      wet(1, '  Café prices <meta charset="koi8-r"> rose.\nA second line of the page.\n'),
      wet(2, ''),
      wet(3, Buffer.from('Caf\xe9 cr\xe8me in windows-1252, declared.', 'latin1'), 'text/plain; charset=windows-1252'),
    ];
    const r = await readWarcFile(write(dir, 'CC-MAIN-2024-10-x.warc.wet.gz', perRecordGzip(records)), dir);
    expect(r.counts).toMatchObject({ records: 4, nonResponse: 1, empty: 1, kept: 2, malformed: 0 });
    expect(r.docs.map((d) => d.text)).toEqual(['Café prices <meta charset="koi8-r"> rose.\nA second line of the page.', 'Café crème in windows-1252, declared.']);
    expect(r.docs[0]).toMatchObject({ id: '00000000-0000-0000-0000-000000000001', created: '2024-02-20T10:00:00Z' });
    expect(r.docs[0]?.metadata).toMatchObject({ url: 'http://example.com/1', dump: 'CC-MAIN-2024-10', content_type: 'text/plain', charset: 'utf-8', html_bytes: null, raw_html_sha1: null });
    expect(r.docs[1]?.metadata).toMatchObject({ charset: 'windows-1252' });
    // The same text under min_text_length is counted as too short, as a page's would be.
    const short = await readWarcFile(write(dir, 'short.warc.wet', Buffer.concat(records)), dir, { minTextLength: 60 });
    expect(short.counts).toMatchObject({ kept: 1, tooShort: 1, empty: 1 });
  });

  it('undoes chunked transfer coding and gzip content coding (and keeps a payload stored decoded under a gzip header)', async () => {
    const dir = scratchDir();
    const body = gzipSync(page('Zipped'));
    const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    const rec = warcRecord('response', 'http://example.com/z', httpBlock(200, { 'Content-Type': 'text/html', 'Transfer-Encoding': 'chunked', 'Content-Encoding': 'gzip' }, chunked));
    const stored = warcRecord('response', 'http://example.com/s', httpBlock(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }, page('Stored decoded')));
    const r = await readWarcFile(write(dir, 'z.warc', Buffer.concat([rec, stored])), dir);
    expect(r.docs[0]?.text).toContain('Zipped: a river runs');
    expect(r.docs[1]?.text).toContain('Stored decoded: a river runs');
  });
  it('reads WARC headers as UTF-8: an IRI in WARC-Target-URI is metadata.url as written', async () => {
    const dir = scratchDir();
    const rec = warcRecord('response', 'http://example.com/café/日本', httpBlock(200, { 'Content-Type': 'text/html' }, page('IRI')));
    const r = await readWarcFile(write(dir, 'iri.warc', rec), dir);
    expect((r.docs[0]?.metadata as { url: string }).url).toBe('http://example.com/café/日本');
  });
});

describe('damaged input', () => {
  it('a truncated final gzip member: the records before it are kept, the cut one is counted and logged with file and byte offset', async () => {
    const dir = scratchDir();
    const whole = perRecordGzip([html(1), html(2)]);
    const last = gzipSync(html(3));
    const file = write(dir, 'cut.warc.gz', Buffer.concat([whole, last.subarray(0, Math.floor(last.length / 2))]));
    const r = await readWarcFile(file, dir);
    expect(r.counts).toMatchObject({ records: 2, kept: 2, truncated: 1 });
    // The byte Common Crawl's index would give (the cut member's), and where the record starts once decompressed.
    const at = html(1).length + html(2).length;
    expect(r.logs.join('\n')).toContain(`${file}: byte ${whole.length} (gzip member; ${at} decompressed): truncated input`);
  });

  for (const [label, delta] of [['too short', -40], ['too long', +300]] as const) {
    it(`a record whose Content-Length is ${label} is skipped and counted; the next record is read`, async () => {
      const dir = scratchDir();
      const bad = html(2);
      const block = httpBlock(200, { 'Content-Type': 'text/html' }, page('Page 2'));
      const damaged = warcRecord('response', 'http://example.com/2', block, { contentLength: block.length + delta });
      const r = await readWarcFile(write(dir, 'len.warc', Buffer.concat([html(1), damaged, html(3)])), dir);
      expect(bad.length).toBeGreaterThan(0);
      expect(r.counts).toMatchObject({ kept: 2, malformed: 1 });
      expect(r.docs.map((d) => (d.metadata as { url: string }).url)).toEqual(['http://example.com/1', 'http://example.com/3']);
      expect(r.logs.join('\n')).toContain(`len.warc: byte ${html(1).length}: damaged record`);
    });
  }

  it('per-record gzip: a damaged record is logged at its member, where decompressing starts with that record', async () => {
    const dir = scratchDir();
    const block = httpBlock(200, { 'Content-Type': 'text/html' }, page('Page 2'));
    const damaged = warcRecord('response', 'http://example.com/2', block, { contentLength: block.length + 300 });
    const file = write(dir, 'len.warc.gz', perRecordGzip([html(1), html(4), damaged, html(3)]));
    const r = await readWarcFile(file, dir);
    expect(r.counts).toMatchObject({ kept: 3, malformed: 1 });
    const m = /len\.warc\.gz: byte (\d+) \(gzip member; (\d+) decompressed\): damaged record/.exec(r.logs.join('\n'));
    expect(m, r.logs.join('\n')).not.toBeNull();
    expect(Number(m?.[1])).toBe(gzipSync(html(1)).length + gzipSync(html(4)).length);
    expect(Number(m?.[2])).toBe(html(1).length + html(4).length);
    const from = gunzipSync(readFileSync(file).subarray(Number(m?.[1])));
    expect(from.subarray(0, damaged.length).equals(damaged)).toBe(true);
  });

  it('an unknown declared charset is counted and logged; the page is decoded from the next source (its <meta>, else detection)', async () => {
    const dir = scratchDir();
    const latin = Buffer.from('<html><head><meta charset="windows-1252"></head><body><p>Caf\xe9 cr\xe8me br\xfbl\xe9e on the square.</p></body></html>', 'latin1');
    const rec = warcRecord('response', 'http://example.com/c', httpBlock(200, { 'Content-Type': 'text/html; charset=x-no-such-charset' }, latin));
    const r = await readWarcFile(write(dir, 'cs.warc', Buffer.concat([rec, html(2)])), dir);
    expect(r.counts).toMatchObject({ kept: 2, unknownCharset: 1 });
    expect(r.docs[0]?.text).toBe('Café crème brûlée on the square.');
    expect((r.docs[0]?.metadata as { charset: string }).charset).toBe('windows-1252');
    expect(r.logs.join('\n')).toMatch(/unknown charset 'x-no-such-charset', decoded as windows-1252/);
  });

  it('a page in a charset no decoder has (UTF-32, which browsers refuse too) is skipped as undecodable, counted and logged', async () => {
    const dir = scratchDir();
    const s = '<html><body><p>Hello world in UTF-32.</p></body></html>';
    const utf32 = Buffer.alloc(4 + s.length * 4);
    utf32.writeUInt32BE(0xfeff, 0);
    for (let i = 0; i < s.length; i++) utf32.writeUInt32BE(s.charCodeAt(i), 4 + 4 * i);
    const rec = warcRecord('response', 'http://example.com/u32', httpBlock(200, { 'Content-Type': 'text/html' }, utf32));
    const r = await readWarcFile(write(dir, 'u32.warc', Buffer.concat([rec, html(2)])), dir);
    expect(r.counts).toMatchObject({ records: 2, kept: 1, undecodable: 1 });
    expect(r.logs.join('\n')).toMatch(/u32\.warc: byte 0: http:\/\/example\.com\/u32: no usable charset \(declared: none; detected: UTF-32BE\)/);
  });

  it('a 20 MB page is skipped unread (counted, logged with its URL); the next record is read', async () => {
    const dir = scratchDir();
    const big = `<html><body><p>${'word '.repeat(4_000_000)}</p></body></html>`;
    const rec = warcRecord('response', 'http://example.com/big', httpBlock(200, { 'Content-Type': 'text/html' }, big));
    const r = await readWarcFile(write(dir, 'big.warc.gz', perRecordGzip([html(1), rec, html(3)])), dir);
    expect(r.counts).toMatchObject({ records: 3, kept: 2, tooLarge: 1 });
    const place = `byte ${gzipSync(html(1)).length} (gzip member; ${html(1).length} decompressed)`;
    expect(r.logs.join('\n')).toMatch(new RegExp(`big\\.warc\\.gz: ${place.replace(/[()]/g, '\\$&')}: http://example\\.com/big: \\d+-byte record over max_html_bytes`));
  });

  it('a file that is not a WARC at all: counted as damaged and logged, no documents, no crash', async () => {
    const dir = scratchDir();
    const r = await readWarcFile(write(dir, 'notes.warc', Buffer.from('{"id": 1, "text": "jsonl, not a WARC"}\n'.repeat(50))), dir);
    expect(r.docs).toEqual([]);
    expect(r.counts.records).toBe(0);
    expect(r.counts.malformed).toBeGreaterThan(0);
    expect(r.logs[0]).toMatch(/notes\.warc: byte 0: damaged record: expected a WARC\/1\.x version line/);
  });
});
