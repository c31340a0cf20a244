// DataTrove PIIFormatter's email and IPv4 regexes (formatters/pii.py) as linear-time matchers with Python semantics.

export type PiiProfile = 'head' | 'fineweb-2024';

const LOCAL_SPECIALS = new Set("!#$%&'*+/=?^_`{|}~-");
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
/** Python `\w` (str patterns) for `\b`: letters, numbers, underscore. */
const WORD = /[\p{L}\p{N}_]/u;

function charClasses(profile: PiiProfile) {
  // v0.2.0 classes were lowercase-only (fixed in c72b1e4a), so NAME@MYSITE.COM was not matched.
  const alnum = profile === 'head' ? (c: number) => isDigit(c) || isLower(c) || isUpper(c) : (c: number) => isDigit(c) || isLower(c);
  const local = (c: number) => alnum(c) || (c < 0x80 && LOCAL_SPECIALS.has(String.fromCharCode(c)));
  const cls = profile === 'head' ? 'A-Za-z0-9' : 'a-z0-9';
  const octet = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)';
  const bracket = new RegExp(`\\[(?:${octet}\\.){3}(?:${octet}|[${cls}-]*[${cls}]:)\\]`, 'y');
  return { alnum, local, bracket };
}

function isWordAt(s: string, i: number): boolean {
  if (i < 0 || i >= s.length) return false;
  const c = s.charCodeAt(i);
  if (c < 0x80) return isDigit(c) || isLower(c) || isUpper(c) || c === 0x5f;
  return WORD.test(String.fromCodePoint(s.codePointAt(i) ?? c));
}
/** Code unit index of the code point ending at i (the start of a surrogate pair). */
function prevCp(s: string, i: number): number {
  const c = s.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 && (s.charCodeAt(i - 2) & 0xfc00) === 0xd800 ? i - 2 : i - 1;
}
const boundaryAt = (s: string, i: number) => isWordAt(s, i) !== (i > 0 && isWordAt(s, prevCp(s, i)));

/**
 * End of the email regex's domain part starting at q, or -1. `(label\.)+label` is matched the way the backtracking
 * engine resolves it: as many dotted labels as possible, then the longest alphanumeric-ending final label, else one
 * dotted label fewer; then the `[IPv4]` / `[tag:…]` form.
 */
function domainEnd(s: string, q: number, cc: ReturnType<typeof charClasses>): number {
  const labelChar = (c: number) => cc.alnum(c) || c === 0x2d;
  let k = q;
  let dotted = 0;
  let lastDot = -1;
  for (;;) {
    let r = k;
    while (r < s.length && labelChar(s.charCodeAt(r))) r++;
    const valid = r > k && cc.alnum(s.charCodeAt(k)) && cc.alnum(s.charCodeAt(r - 1));
    if (valid && s.charCodeAt(r) === 0x2e) {
      dotted++;
      lastDot = r;
      k = r + 1;
      continue;
    }
    if (dotted >= 1 && k < s.length && cc.alnum(s.charCodeAt(k))) {
      let e = r;
      while (!cc.alnum(s.charCodeAt(e - 1))) e--;
      return e;
    }
    if (dotted >= 2) return lastDot;
    break;
  }
  cc.bracket.lastIndex = q;
  return cc.bracket.test(s) ? cc.bracket.lastIndex : -1;
}

/** All matches of DataTrove's email regex, left to right, non-overlapping (what `re.sub` replaces). */
export function findEmails(s: string, profile: PiiProfile): Array<[number, number]> {
  const cc = charClasses(profile);
  const out: Array<[number, number]> = [];
  let lastEnd = 0;
  for (let p = s.indexOf('@'); p >= 0; p = s.indexOf('@', p + 1)) {
    if (p < lastEnd) continue;
    // The local part `C+(\.C+)*` must run up to this '@': its start lies in the [C.] run before it.
    let lo = p;
    while (lo > lastEnd && (cc.local(s.charCodeAt(lo - 1)) || s.charCodeAt(lo - 1) === 0x2e)) lo--;
    if (lo === p || s.charCodeAt(p - 1) === 0x2e) continue;
    let from = lo;
    for (let i = p - 2; i >= lo; i--) {
      if (s.charCodeAt(i) === 0x2e && s.charCodeAt(i + 1) === 0x2e) {
        from = i + 2;
        break;
      }
    }
    let start = -1;
    for (let i = from; i < p; i++) {
      if (cc.local(s.charCodeAt(i)) && boundaryAt(s, i)) {
        start = i;
        break;
      }
    }
    if (start < 0) continue;
    const end = domainEnd(s, p + 1, cc);
    if (end < 0) continue;
    out.push([start, end]);
    lastEnd = end;
  }
  return out;
}

export const IPV4 = /(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)/g;

/** `(prefix, bits)` networks of CPython's IPv4 `is_private` table (after gh-113171), and its two exceptions. */
const PRIVATE: Array<[number, number]> = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.0.170', 31], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['240.0.0.0', 4], ['255.255.255.255', 32],
].map(([ip, bits]) => [toInt(ip as string), bits as number]);
const PRIVATE_EXCEPTIONS = [toInt('192.0.0.9'), toInt('192.0.0.10')];
const SHARED: [number, number] = [toInt('100.64.0.0'), 10];

function toInt(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}
const inNet = (x: number, [net, bits]: [number, number]) => Math.floor(x / 2 ** (32 - bits)) === Math.floor(net / 2 ** (32 - bits));

/**
 * `public_ip_validator`: `ipaddress.ip_address(m)` (a leading zero in an octet is a ValueError, so no replacement),
 * then `is_global` when only public IPs are removed. Multicast counts as global, as in CPython.
 */
export function ipAccepted(m: string, publicOnly: boolean): boolean {
  const octets = m.split('.');
  if (octets.some((o) => o.length > 1 && o.startsWith('0'))) return false;
  if (!publicOnly) return true;
  const x = toInt(m);
  if (inNet(x, SHARED)) return false;
  const priv = PRIVATE.some((n) => inNet(x, n)) && !PRIVATE_EXCEPTIONS.includes(x);
  return !priv;
}
