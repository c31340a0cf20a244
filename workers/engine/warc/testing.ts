// Test helpers for `assay warc`: a local HTTP site, wget's WARC of it, hand-built records, and a one-file run.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { readJsonlFile } from '../testing.js';
import { processWarcFile } from './file.js';
import { resolveWarcOptions, type WarcOptions } from './index.js';
import type { WarcCounts } from './types.js';

export interface SitePage {
  path: string;
  body: string | Buffer;
  type: string;
}

/** Serves `pages` on 127.0.0.1 (anything else is a 404); `base` ends with `/`. */
export async function serveSite(pages: readonly SitePage[]): Promise<{ base: string; close: () => Promise<void> }> {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const server = createServer((req, res) => {
    const page = byPath.get(req.url ?? '');
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = typeof page.body === 'string' ? Buffer.from(page.body) : page.body;
    res.writeHead(200, { 'content-type': page.type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return { base: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** `wget -r -np --warc-file` over the site (asynchronously: the server answers from this same process). */
export async function wgetWarc(base: string, dir: string, name: string): Promise<string> {
  const args = ['-q', '-r', '-np', '-nd', '-P', join(dir, 'wget-files'), `--warc-file=${join(dir, name)}`, base];
  // wget exits 8 when some URL answered with an error (robots.txt's 404): the WARC is complete all the same.
  await promisify(execFile)('/usr/bin/wget', args).catch((e: { code?: number }) => {
    if (e.code !== 8) throw e;
  });
  return join(dir, `${name}.warc.gz`);
}

/** An HTTP response as a WARC block. */
export function httpBlock(status: number, headers: Record<string, string>, body: Buffer | string): Buffer {
  const head = [`HTTP/1.1 ${status} X`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), typeof body === 'string' ? Buffer.from(body) : body]);
}

/** One WARC/1.1 record; `contentLength` overrides the true length (to write a damaged record), `contentType` the HTTP one. */
export function warcRecord(type: string, uri: string, block: Buffer, opts: { id?: string; contentLength?: number; contentType?: string } = {}): Buffer {
  const head = [
    'WARC/1.1', `WARC-Type: ${type}`, `WARC-Record-ID: <urn:uuid:${opts.id ?? randomUUID()}>`, 'WARC-Date: 2024-02-20T10:00:00Z',
    `WARC-Target-URI: ${uri}`, `Content-Type: ${opts.contentType ?? 'application/http; msgtype=response'}`, `Content-Length: ${opts.contentLength ?? block.length}`,
  ].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]);
}

/** Common Crawl's layout: every record its own gzip member. */
export const perRecordGzip = (records: readonly Buffer[]): Buffer => Buffer.concat(records.map((r) => gzipSync(r)));

/** A whole run over one file, in this process: documents, counts and the log lines. */
export async function readWarcFile(file: string, dir: string, o: Partial<WarcOptions> = {}): Promise<{ docs: Record<string, unknown>[]; counts: WarcCounts; logs: string[] }> {
  const options = resolveWarcOptions({ documents: [file], destination: dir, urlFilter: false, ...o }, dir);
  const logs: string[] = [];
  const output = join(dir, `out-${randomUUID()}.jsonl.gz`);
  const r = await processWarcFile({ input: file, output, rel: 'test.warc.gz' }, options, { log: (m) => logs.push(m) });
  return { docs: readJsonlFile(output), counts: r.counts, logs };
}
