// The HTTP response inside a WARC `response` record: status line, headers, and the payload as the server meant it.
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { parseHeaderLines } from './records.js';

export interface HttpResponse {
  status: number;
  headers: Map<string, string>;
  /** The payload as stored in the record (what WARC-Payload-Digest hashes). */
  payload: Buffer;
  /** The payload with transfer and content codings undone: the HTML bytes. */
  body: Buffer;
}

/** Thrown for a block that is not a readable HTTP response; the caller counts and logs the record. */
export class HttpParseError extends Error {}

const STATUS = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s.*)?$/;

export function parseHttpResponse(block: Buffer, maxBodyBytes: number): HttpResponse {
  // Headers end at the first blank line; some servers send bare LF line ends.
  let end = block.indexOf('\r\n\r\n');
  let sep = 4;
  const lf = block.indexOf('\n\n');
  if (lf >= 0 && (end < 0 || lf < end)) {
    end = lf;
    sep = 2;
  }
  if (end < 0) throw new HttpParseError('no end of the HTTP headers');
  const lines = block.subarray(0, end).toString('latin1').split(/\r?\n/);
  const m = STATUS.exec((lines[0] as string).trim());
  if (!m) throw new HttpParseError(`not an HTTP status line: '${(lines[0] as string).slice(0, 60)}'`);
  const headers = parseHeaderLines(lines.slice(1));
  const payload = block.subarray(end + sep);
  let body = payload;
  if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(body);
  body = decodeContent(body, (headers.get('content-encoding') ?? '').trim().toLowerCase(), maxBodyBytes);
  return { status: Number(m[1]), headers, payload, body };
}

/** Chunked transfer coding (RFC 9112 §7.1); a payload cut short keeps the chunks that arrived whole. */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  while (pos < body.length) {
    const eol = body.indexOf('\r\n', pos);
    if (eol < 0) break;
    const size = parseInt(body.subarray(pos, eol).toString('latin1').split(';')[0] as string, 16);
    if (!Number.isFinite(size)) throw new HttpParseError('bad chunk size in a chunked body');
    if (size === 0) break;
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    pos = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Undo Content-Encoding (crawlers that asked for identity still get gzip from some servers). */
function decodeContent(body: Buffer, encoding: string, max: number): Buffer {
  if (encoding === '' || encoding === 'identity' || body.length === 0) return body;
  const opts = { maxOutputLength: max };
  try {
    // Some crawlers store the payload decoded but keep the header: no gzip magic means there is nothing to undo.
    if (encoding === 'gzip' || encoding === 'x-gzip') return body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body, opts) : body;
    if (encoding === 'br') return brotliDecompressSync(body, opts);
    if (encoding === 'deflate') {
      // "deflate" is zlib-wrapped by the standard and raw by some servers.
      try {
        return inflateSync(body, opts);
      } catch {
        return inflateRawSync(body, opts);
      }
    }
  } catch (e) {
    throw new HttpParseError(`cannot undo Content-Encoding ${encoding}: ${(e as Error).message}`);
  }
  throw new HttpParseError(`unsupported Content-Encoding '${encoding}'`);
}
