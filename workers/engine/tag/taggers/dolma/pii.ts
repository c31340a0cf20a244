// Dolma's regex PII taggers (`taggers/pii.py`): e-mail addresses, phone numbers and IPv4 addresses.
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { ND_RANGES } from './nd-ranges.js';
import { findEmails, findIps, findPhones, nextDigit, type PiiMatch } from './pii-scan.js';
import { containsDeadUrl } from './pii-url.js';
import { cpCount, docOutput, isPyWs, spanOutput } from './text.js';
import { primeOnce } from './warm-up.js';

const EMAIL = 'EMAIL_ADDRESS';
const PHONE = 'PHONE_NUMBER';
const IP = 'IP_ADDRESS';
const WINDOW = 100;

const span = (m: PiiMatch, type: string): TagSpan => ({ start: m.start, end: m.end, type, score: 1 });

/** UTF-16 offset `count` code points before (negative) or after `i`, clamped to the text. */
function cpStep(text: string, i: number, count: number): number {
  const low = (k: number) => text.charCodeAt(k) >= 0xdc00 && text.charCodeAt(k) <= 0xdfff;
  const high = (k: number) => text.charCodeAt(k) >= 0xd800 && text.charCodeAt(k) <= 0xdbff;
  for (let k = 0; k < Math.abs(count); k++) {
    if (count < 0) {
      if (i <= 0) break;
      i -= i >= 2 && low(i - 1) && high(i - 2) ? 2 : 1;
    } else {
      if (i >= text.length) break;
      i += i + 1 < text.length && high(i) && low(i + 1) ? 2 : 1;
    }
  }
  return i;
}

/** `text[start:end].strip() == "("`, without the backtracking of a strip regex on long runs. */
function strippedIsParen(text: string, start: number, end: number): boolean {
  let seen = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isPyWs(c)) continue;
    if (c !== 0x28 || seen) return false;
    seen = true;
  }
  return seen;
}

function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ws = isPyWs(text.charCodeAt(i));
    if (!ws && !inWord) n++;
    inWord = !ws;
  }
  return n;
}

/**
 * `BasePiiFilter` with `method="regex", postprocess=True`: EMAIL, PHONE, IP over the whole text,
 * then the context rules: an e-mail survives if the part of the *whole match* before its first "@"
 * is not "(" once stripped and the part between its first and second "@" has a "." [Dolma quirk: a
 * match starting "@…" is judged on the wrong part]; a phone or IP is dropped when the 100-character
 * window around it holds "isbn", "doi" or "#", and a phone also when the text "contains a URL",
 * which with Dolma's regex means a backspace before one (see pii-url.ts).
 */
function regexPiiSpans(text: string): TagSpan[] {
  const spans: TagSpan[] = [];
  for (const m of text.includes('@') ? findEmails(text) : []) {
    const at1 = text.indexOf('@', m.start);
    const at2 = text.indexOf('@', at1 + 1);
    const domain = text.slice(at1 + 1, at2 === -1 || at2 > m.end ? m.end : at2);
    if (!strippedIsParen(text, m.start, at1) && domain.includes('.')) spans.push(span(m, EMAIL));
  }
  let hasUrl: boolean | undefined;
  const typed = [...findPhones(text).map((m) => [m, PHONE] as const), ...findIps(text).map((m) => [m, IP] as const)];
  for (const [m, type] of typed) {
    const context = text.slice(cpStep(text, m.start, -WINDOW), cpStep(text, m.end, WINDOW));
    if (context.includes('isbn') || context.includes('doi') || context.includes('#')) continue;
    if (type === PHONE && (hasUrl ??= containsDeadUrl(text))) continue;
    spans.push(span(m, type));
  }
  return spans;
}

/**
 * `pii_regex_v1` divides by `len(text.split())` and raises ZeroDivisionError on an empty or
 * whitespace-only text; here both versions give -1.0 there, the value Dolma's v2 chose.
 */
function withDocScore(text: string, spans: TagSpan[]): TagSpan[] {
  const words = wordCount(text);
  spans.push({ start: 0, end: text.length, type: 'doc', score: words === 0 ? -1 : spans.length / words });
  return spans;
}

/**
 * `FastPiiRegex`: per non-blank paragraph (its "\n" included), e-mails judged on group 1 only,
 * phones with no context rule (`_false_positive_identifiers` is never called upstream), IPs kept
 * unless the IP text itself is a URL (impossible: no backspace). Nothing is searched in a text with
 * more than 10 000 "?". The IP regex cannot cross a newline, so one whole-text pass is split up.
 * Dolma's pre-checks ("@" / a digit in the paragraph) change nothing but speed; here they pick the
 * paragraphs to visit: only those with an "@" or a digit (never blank), in text order.
 */
export function fastPiiSpans(text: string): TagSpan[] {
  const spans: TagSpan[] = [];
  let questions = 0;
  for (let i = text.indexOf('?'); i !== -1 && questions <= 10_000; i = text.indexOf('?', i + 1)) questions++;
  if (questions <= 10_000) {
    const n = text.length;
    const ips = findIps(text);
    let ip = 0;
    let nextAt = orEnd(text.indexOf('@'), n);
    let digit = orEnd(nextDigit(text, 0), n);
    while (nextAt < n || digit < n) {
      const hit = Math.min(nextAt, digit);
      const start = text.lastIndexOf('\n', hit) + 1;
      const end = orEnd(text.indexOf('\n', hit), n - 1) + 1;
      if (nextAt < end) {
        for (const m of findEmails(text, start, end)) {
          const at = text.indexOf('@', m.groupStart);
          if (!strippedIsParen(text, m.groupStart, at) && text.slice(at + 1, m.groupEnd).includes('.')) spans.push(span(m, EMAIL));
        }
        nextAt = orEnd(text.indexOf('@', end), n);
      }
      if (digit < end) {
        for (const m of findPhones(text, start, end)) spans.push(span(m, PHONE));
        digit = orEnd(nextDigit(text, end), n);
      }
      while (ip < ips.length && ips[ip]!.start < start) ip++;
      for (; ip < ips.length && ips[ip]!.start < end; ip++) spans.push(span(ips[ip]!, IP));
    }
  }
  const piiCount = spans.length;
  const length = cpCount(text);
  let covered = 0;
  for (const s of spans) covered += cpCount(text, s.start, s.end);
  spans.push({ start: 0, end: text.length, type: 'doc_count', score: piiCount });
  // Dolma sums span lengths after appending doc_count, whose length is the whole text, so the
  // fraction is 1 + the PII share [Dolma quirk]; -1.0 for an empty text (its ZeroDivisionError branch).
  spans.push({ start: 0, end: text.length, type: 'doc_frac', score: length === 0 ? -1 : (covered + length) / length });
  return spans;
}

const TYPES = [EMAIL, PHONE, IP];
let found = new Int32Array(3 * 256);
const sums = new Float64Array(2);

/**
 * fastPiiSpans through the C addon (native/pii.c, the same steps on the same units): the IPv4 search stays one regex
 * search here, the rest is scanned in C, which needs no compiling: optimizing the JavaScript scanners was a quarter
 * of a fresh Dolma pass.
 */
export function nativeFastPiiSpans(addon: NativeAddon, text: string): TagSpan[] {
  const ips = findIps(text);
  const at = new Int32Array(2 * ips.length);
  for (let k = 0; k < ips.length; k++) {
    at[2 * k] = ips[k]!.start;
    at[2 * k + 1] = ips[k]!.end;
  }
  let count = addon.piiFast(text, at, ND_RANGES, found, sums);
  if (3 * count > found.length) {
    found = new Int32Array(3 * count);
    count = addon.piiFast(text, at, ND_RANGES, found, sums);
  }
  const spans: TagSpan[] = [];
  for (let k = 0; k < count; k++) spans.push({ start: found[3 * k + 1]!, end: found[3 * k + 2]!, type: TYPES[found[3 * k]!]!, score: 1 });
  const length = sums[0]!;
  const covered = sums[1]!;
  spans.push({ start: 0, end: text.length, type: 'doc_count', score: count });
  spans.push({ start: 0, end: text.length, type: 'doc_frac', score: length === 0 ? -1 : (covered + length) / length });
  return spans;
}

/** `i`, or `end` when a search found nothing (-1). */
const orEnd = (i: number, end: number): number => (i === -1 ? end : i);

const piiOutputs = [
  spanOutput(EMAIL, 'An e-mail address, with the punctuation/whitespace the regex matched around it', '1'),
  spanOutput(PHONE, 'A 10-digit phone number, with its leading whitespace', '1'),
  spanOutput(IP, 'A dotted IPv4 address', '1'),
];

export const piiRegexV1: TaggerSpec = {
  name: 'pii_regex_v1',
  description: 'Regex e-mail, phone and IPv4 detection with context rules; doc = PII spans per word',
  outputs: [...piiOutputs, docOutput('doc', 'PII spans / whitespace-separated words (-1.0 without words; Dolma raises there)', '≥ 0, or -1')],
  create: () => ({ tag: (doc) => withDocScore(doc.text, regexPiiSpans(doc.text)) }),
};

export const piiRegexV2: TaggerSpec = {
  name: 'pii_regex_v2',
  description: 'pii_regex_v1 with doc = -1.0 for texts without words',
  outputs: [...piiOutputs, docOutput('doc', 'PII spans / whitespace-separated words (-1.0 without words)', '≥ 0, or -1')],
  create: () => ({ tag: (doc) => withDocScore(doc.text, regexPiiSpans(doc.text)) }),
};

export const piiRegexWithCountsFastV2: TaggerSpec = {
  name: 'pii_regex_with_counts_fast_v2',
  description: 'Per-paragraph regex e-mail, phone and IPv4 detection (no context rules) with counts',
  outputs: [
    ...piiOutputs,
    docOutput('doc_count', 'Number of PII spans', '≥ 0'),
    docOutput('doc_frac', '1 + PII characters / text characters (Dolma quirk: the doc_count span is summed too); -1.0 for empty text', '≥ 1, or -1'),
  ],
  create: (_options, ctx) => {
    const addon = nativeAddon();
    if (addon !== null) return { tag: (doc) => nativeFastPiiSpans(addon, doc.text) };
    primeOnce('pii_regex_with_counts_fast_v2', fastPiiSpans, ctx);
    return { tag: (doc) => fastPiiSpans(doc.text) };
  },
};
