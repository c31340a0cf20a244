// Is this payload HTML, and which characters are its bytes: declared charset (HTTP, then <meta>), BOM, UTF-8, detection.
import { TextDecoder } from 'node:util';
import { detect } from 'chardet';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Types that say nothing about the payload: sniff it, as DataTrove does with python-magic when the header is missing. */
const VAGUE_TYPES = new Set(['', 'application/octet-stream', 'text/plain', 'unknown/unknown', 'application/unknown', '*/*']);
const HTML_START = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body|title|meta|div|p|!--)[\s>]/i;

export const mimeType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

export function isHtml(contentType: string | undefined, body: Buffer): boolean {
  const mime = mimeType(contentType);
  if (HTML_TYPES.has(mime)) return true;
  if (!VAGUE_TYPES.has(mime)) return false;
  return HTML_START.test(stripBom(body.subarray(0, 1024)).toString('latin1'));
}

export interface Decoded {
  text: string;
  /** The WHATWG name of the encoding used (`utf-8`, `windows-1252`, …). */
  charset: string;
  /** A declared label no decoder knows (the page was decoded by the next source instead). */
  unknownLabel: string | null;
}

/** Thrown when no source gives a usable encoding; the caller counts and logs the record. */
export class CharsetError extends Error {}

function decoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label.trim().replace(/^["']|["']$/g, ''));
  } catch {
    return null;
  }
}

const stripBom = (b: Buffer): Buffer => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);

function bomCharset(b: Buffer): string | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

const charsetParam = (contentType: string | undefined): string | null => /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType ?? '')?.[1] ?? null;

/** `<meta charset=…>` or `<meta http-equiv=Content-Type content="…; charset=…">` in the first 4 kB (HTML's prescan window is 1024 bytes; pages with long heads go past it). */
export function metaCharset(body: Buffer): string | null {
  const head = body.subarray(0, 4096).toString('latin1');
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct) return direct[1] as string;
  }
  return null;
}

/** `html: false`: plain text (a WET record), whose `<meta>`-looking text declares nothing. */
export function decodeHtml(body: Buffer, contentType: string | undefined, html = true): Decoded {
  let unknownLabel: string | null = null;
  const bom = bomCharset(body);
  const labels = [bom, charsetParam(contentType), html ? metaCharset(body) : null].filter((l): l is string => l !== null);
  for (const label of labels) {
    const d = decoderFor(label);
    if (d === null) {
      unknownLabel ??= label;
      continue;
    }
    // A page that says ISO-8859-1 means windows-1252 (WHATWG), which TextDecoder already maps.
    return { text: d.decode(body), charset: d.encoding, unknownLabel };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), charset: 'utf-8', unknownLabel };
  } catch {
    /* not UTF-8: detect below */
  }
  const guess = detect(body.subarray(0, 65536));
  const d = guess === null ? null : decoderFor(guess);
  if (d === null) throw new CharsetError(`no usable charset (declared: ${labels.join(', ') || 'none'}; detected: ${guess ?? 'nothing'})`);
  return { text: d.decode(body), charset: d.encoding, unknownLabel };
}
