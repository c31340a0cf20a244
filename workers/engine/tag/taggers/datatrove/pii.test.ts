// PII matchers against DataTrove's regexes on random input, IP validation, and the email/ip spans.
import { describe, expect, it } from 'vitest';
import { piiOptions, piiSpans } from './pii.js';
import { findEmails, ipAccepted } from './pii-match.js';

const W = '[\\p{L}\\p{N}_]';
const B = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
/** DataTrove's email regex transcribed for JS (Python's Unicode `\b` emulated), as a reference for the fast matcher. */
function referenceEmails(s: string, lower: boolean): Array<[number, number]> {
  const a = lower ? 'a-z0-9' : 'A-Za-z0-9';
  const local = `[${a}!#$%&'*+/=?^_\`{|}~-]`;
  const octet = '(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)';
  const re = new RegExp(
    `${B}${local}+(?:\\.${local}+)*@(?:(?:[${a}](?:[${a}-]*[${a}])?\\.)+[${a}](?:[${a}-]*[${a}])?|\\[(?:${octet}\\.){3}(?:${octet}|[${a}-]*[${a}]:)\\])`,
    'gu',
  );
  return [...s.matchAll(re)].map((m) => [m.index, m.index + m[0].length]);
}

let seed = 11;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);

describe('email matcher', () => {
  it('equals the regex on random strings, both profiles', () => {
    const pick = (xs: string[]) => xs[rnd(xs.length)] as string;
    const some = (xs: string[], max: number) => Array.from({ length: rnd(max + 1) }, () => pick(xs)).join('');
    let hits = 0;
    for (let k = 0; k < 5000; k++) {
      const local = some(['a', 'Z', '0', '.', '..', '_', '-', '+', 'é', '#', '"'], 4);
      const domain = pick(['', '[1.2.3.4]', '[1.2.3.x:]', '[1.2.3]']) || some(['a', 'b0', 'x-y', '-', 'Z', '1', '.', '..', '@'], 5);
      let s = some([' ', 'é', 'x', '.', '@'], 2) + local + '@' + domain + some([' ', '.', '-', 'a', '@b.c'], 2);
      if (rnd(4) === 0) {
        const at = rnd(s.length + 1);
        s = s.slice(0, at) + pick(['@', '.', 'A', '-', '']) + s.slice(at + rnd(2));
      }
      for (const lower of [false, true]) {
        const want = referenceEmails(s, lower);
        hits += want.length;
        expect(findEmails(s, lower ? 'fineweb-2024' : 'head'), JSON.stringify(s)).toEqual(want);
      }
    }
    expect(hits).toBeGreaterThan(500);
  });

  it('uses Python word boundaries and the v0.2.0 lowercase classes', () => {
    expect(findEmails('éjohn@x.com', 'head')).toEqual([]);
    expect(findEmails('NAME@MYSITE.COM', 'head')).toEqual([[0, 15]]);
    expect(findEmails('NAME@MYSITE.COM', 'fineweb-2024')).toEqual([]);
  });
});

describe('IP validation (ipaddress.ip_address + is_global)', () => {
  it('rejects leading zeros and non-global ranges, accepts multicast', () => {
    expect(ipAccepted('108.0.0.01', true)).toBe(false);
    expect(ipAccepted('108.0.0.1', false)).toBe(true);
    for (const ip of ['10.1.2.3', '172.31.254.254', '192.168.0.1', '127.0.0.2', '100.64.0.1', '0.1.2.3', '198.51.100.7', '255.255.255.255', '192.0.0.8']) {
      expect(ipAccepted(ip, true), ip).toBe(false);
    }
    for (const ip of ['8.8.8.8', '224.0.0.1', '192.0.0.9', '172.32.0.1', '100.128.0.1']) expect(ipAccepted(ip, true), ip).toBe(true);
  });
});

describe('pii_formatter spans', () => {
  const opts = piiOptions.parse({});
  it('tags emails, then IPs of the email-replaced text', () => {
    const text = 'mail a@b.com or a@123.123.123.123, host 8.8.8.8 and 10.0.0.1';
    const spans = piiSpans(text, opts, { email: 0, ip: 0 });
    expect(spans.map((s) => [text.slice(s.start, s.end), s.type])).toEqual([
      ['a@b.com', 'email'],
      ['a@123.123.123.123', 'email'],
      ['8.8.8.8', 'ip'],
    ]);
  });

  it('names spans after the replacement DataTrove would cycle to, across documents', () => {
    const cyc = piiOptions.parse({ cycle_replacements: true });
    const counters = { email: 0, ip: 0 };
    const types = (t: string) => piiSpans(t, cyc, counters).map((s) => s.type);
    expect(types('a@b.co c@d.co 1.1.1.1')).toEqual(['email_0', 'email_1', 'ip_0']);
    expect(types('e@f.co 2.2.2.2')).toEqual(['email_0', 'ip_1']);
  });

  it('finds IPs that a digit-edged replacement would create only where they exist in the original', () => {
    const o = piiOptions.parse({ email_replacement: '1.2.3.' });
    const spans = piiSpans('x a@b.co4 9.9.9.9', o, { email: 0, ip: 0 });
    expect(spans.map((s) => s.type)).toEqual(['email', 'ip']);
  });
});
