// Test helper: what warcio, an independent WARC reader, finds in a file (record count, HTML responses and their payload hashes).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { WARCParser } from 'warcio';

/** RFC 4648 base32 (WARC-Payload-Digest's encoding) → hex. */
export function base32ToHex(s: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of s.replace(/=+$/, '')) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2))).toString('hex');
}

interface Truth {
  records: number;
  html: Map<string, { url: string; sha1: string; digest: string | null }>;
  nonHtml: number;
}

/** What warcio (an independent reader) finds in the file. */
export async function warcioTruth(file: string): Promise<Truth> {
  const t: Truth = { records: 0, html: new Map(), nonHtml: 0 };
  for await (const rec of new WARCParser(createReadStream(file))) {
    t.records++;
    if (rec.warcType !== 'response') continue;
    const status = Number(rec.httpHeaders?.statusCode);
    const type = rec.httpHeaders?.headers.get('content-type') ?? '';
    const payload = await rec.readFully(false);
    if (status !== 200) continue;
    if (/html/.test(type) || type === 'application/octet-stream') {
      const digest = rec.warcPayloadDigest ?? null;
      t.html.set(rec.warcHeader('WARC-Record-ID') as string, { url: (rec.warcTargetURI ?? '').replace(/^<|>$/g, ''), sha1: createHash('sha1').update(payload).digest('hex'), digest });
    } else t.nonHtml++;
  }
  return t;
}
