// spaCy's URL_MATCH (lang/tokenizer_exceptions.py) as a linear-time boolean test on one affix-stripped token.
import { ALPHA_LOWER } from './char-classes.js';

const D = '\\p{Nd}';
const HOST_CHAR = 'A-Za-z0-9\\u00a1-\\uffff';
/**
 * Host and optional port, anchored at both ends. Upstream matches the whole token with one regex,
 * `^scheme?(\S+(:\S*)?@)?host(:port)?([/?#]\S*)?$`; its `\S+…@` part backtracks quadratically, so the
 * scheme/userinfo/path parts are resolved by hand and only this bounded part stays a regex.
 */
const HOST_PORT = new RegExp(
  '^(?:' +
    `(?!(?:10|127)(?:\\.${D}{1,3}){3})` +
    `(?!(?:169\\.254|192\\.168)(?:\\.${D}{1,3}){2})` +
    `(?!172\\.(?:1[6-9]|2${D}|3[0-1])(?:\\.${D}{1,3}){2})` +
    `(?:[1-9]${D}?|1${D}${D}|2[01]${D}|22[0-3])` +
    `(?:\\.(?:1?${D}{1,2}|2[0-4]${D}|25[0-5])){2}` +
    `(?:\\.(?:[1-9]${D}?|1${D}${D}|2[0-4]${D}|25[0-4]))` +
    '|' +
    `(?:(?:[${HOST_CHAR}][${HOST_CHAR}_-]{0,62})?[${HOST_CHAR}]\\.)+` +
    `(?:[${ALPHA_LOWER.toClassBody()}]{2,63})` +
    `)(?::${D}{2,5})?$`,
  'u',
);

/** Python `\w` for the scheme class `[\w\+\-\.]`. */
const SCHEME_CHAR = /[\p{L}\p{N}_+\-.]/u;
const HOST_START = new RegExp(`[${HOST_CHAR}]`, 'u');

/** Length of a leading `scheme://` (scheme of 2+ `[\w+\-.]` characters), or 0. */
function schemeEnd(s: string): number {
  const sep = s.indexOf('://');
  if (sep < 2) return 0;
  for (let i = 0; i < sep; i++) if (!SCHEME_CHAR.test(s[i] as string)) return 0;
  return sep + 3;
}

function hostMatches(s: string, h: number): boolean {
  if (h >= s.length || !HOST_START.test(String.fromCodePoint(s.codePointAt(h) ?? 0))) return false;
  let b = h;
  while (b < s.length) {
    const c = s.charCodeAt(b);
    if (c === 0x2f || c === 0x3f || c === 0x23) break; // the path `[/?#]\S*` takes the rest
    if (c === 0x40) return false; // no host or port contains '@'
    b++;
  }
  return HOST_PORT.test(s.slice(h, b));
}

/** `URL_MATCH(s)` for a token without whitespace. */
export function urlMatch(s: string): boolean {
  if (!s.includes('.')) return false; // both host forms contain a dot
  const starts = new Set<number>([0]);
  const se = schemeEnd(s);
  if (se > 0) starts.add(se);
  // `\S+(?::\S*)?@` can end at any '@' that has a character before it.
  for (let q = s.indexOf('@', 1); q >= 0; q = s.indexOf('@', q + 1)) starts.add(q + 1);
  for (const h of starts) if (hostMatches(s, h)) return true;
  return false;
}
