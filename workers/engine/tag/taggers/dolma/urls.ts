// URL normalisation of Dolma's URL taggers: urllib3 `parse_url` and `BaseUrlTagger.clean_url` (`taggers/url.py`).
import { isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { isBlank } from './text.js';

export interface ParsedUrl {
  host: string | null;
  port: number | null;
  path: string | null;
}

const SCHEME = /^(?:[a-zA-Z][a-zA-Z0-9+-]*:|\/)/;
const URI = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^\\/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;
const REG_NAME_PORT = /^((?:[^[\]%:/?#]|%[a-fA-F0-9]{2})*)(?::0*?(|0|[1-9][0-9]{0,4}))?$/;
const IPV6_PORT = /^(\[[0-9A-Fa-f:.]+(?:%(?:25)?(?:[A-Za-z0-9._~-]|%[a-fA-F0-9]{2})+)?\])(?::0*?(|0|[1-9][0-9]{0,4}))?$/;
const IPV4 = /^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$/;
const PATH_CHARS = new Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-~!$&'()*+,;=:@/");

/**
 * urllib3 2.x `parse_url`, reduced to host, port and path (all Dolma reads); `null` where urllib3
 * raises LocationParseError. Hosts of http(s) and scheme-less URLs are lowercased and non-ASCII
 * labels IDNA-encoded — with Node's UTS #46 `domainToASCII` standing in for the `idna` package,
 * which rejects a few labels UTS #46 accepts.
 */
export function parseUrl(url: string): ParsedUrl | null {
  if (url === '') return { host: null, port: null, path: null };
  if (!SCHEME.test(url)) url = '//' + url;
  const m = URI.exec(url);
  if (m === null) return null;
  const [, scheme, authority, rawPath, query, fragment] = m;
  const normalize = scheme === undefined || ['http', 'https'].includes(scheme.toLowerCase());
  let host: string | null = null;
  let port: number | null = null;
  if (authority) {
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    const hp = IPV6_PORT.exec(hostPort) ?? REG_NAME_PORT.exec(hostPort);
    if (hp === null) return null;
    host = hp[1]!;
    if (host.startsWith('[') && !isIPv6(host.slice(1, -1).replace(/%.*$/, ''))) return null;
    if (hp[2] !== undefined && hp[2] !== '') {
      port = Number(hp[2]);
      if (port > 65535) return null;
    }
  }
  if (host && normalize) {
    if (host.startsWith('[')) host = host.toLowerCase();
    else if (!IPV4.test(host)) {
      const labels: string[] = [];
      for (const label of host.split('.')) {
        if (isAscii(label)) labels.push(label.toLowerCase());
        else {
          const ascii = domainToASCII(label.toLowerCase());
          if (ascii === '') return null;
          labels.push(ascii);
        }
      }
      host = labels.join('.');
    }
  }
  let path: string | null = rawPath ?? '';
  if (normalize && path) path = encodeInvalid(removeDotSegments(path));
  if (!path) path = query !== undefined || fragment !== undefined ? '' : null;
  return { host, port, path };
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** RFC 3986 §5.2.4 as urllib3 `_remove_path_dot_segments` implements it. */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length > 0) out.pop();
  }
  if (path.startsWith('/') && (out.length === 0 || out[0])) out.unshift('');
  if (path.endsWith('/.') || path.endsWith('/..')) out.push('');
  return out.join('/');
}

/** urllib3 `_encode_invalid_chars(path, PATH_CHARS)`: UTF-8 (surrogatepass) percent-encoding. */
function encodeInvalid(s: string): string {
  let escapes = 0;
  s = s.replace(/%[a-fA-F0-9]{2}/g, (e) => {
    escapes++;
    return e.toUpperCase();
  });
  const bytes = utf8SurrogatePass(s);
  const keepPercent = escapes === bytes.filter((b) => b === 0x25).length;
  let out = '';
  for (const b of bytes) {
    const ch = String.fromCharCode(b);
    if ((keepPercent && b === 0x25) || (b < 128 && PATH_CHARS.has(ch))) out += ch;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function utf8SurrogatePass(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      c = ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00) + 0x10000;
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return out;
}

/**
 * `BaseUrlTagger.clean_url`: `host[:port][path]` without trailing "/", lowercased; query and
 * fragment dropped. Deviations: a URL urllib3 cannot parse, or one without a host, yields nothing
 * (Dolma raises, or looks up the literal text "None…").
 */
export function cleanUrl(url: string): string[] {
  if (isBlank(url, 0, url.length)) return [];
  const p = parseUrl(url);
  if (p === null || !p.host) return [];
  const joined = `${p.host}${p.port ? `:${p.port}` : ''}${p.path ?? ''}`;
  let end = joined.length;
  while (end > 0 && joined.charCodeAt(end - 1) === 0x2f) end--;
  return [joined.slice(0, end).toLowerCase()];
}

/**
 * `BaseDomainTagger.clean_url`: the host of the cleaned URL with leading "w" and "." characters
 * removed, and "www." + that. Python's `lstrip("www.")` strips a *set* of characters, so
 * "web.com" becomes "eb.com" [Dolma quirk, kept: lists and documents go through the same rule].
 */
export function cleanDomain(url: string): string[] {
  const out: string[] = [];
  for (const u of cleanUrl(url)) {
    const host = parseUrl(u)?.host;
    if (!host) break;
    const bare = host.replace(/^[w.]+/, '');
    out.push(bare, `www.${bare}`);
  }
  return out;
}
