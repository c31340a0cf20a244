// URLFilter: tldextract-style host split, rule order, list files and soft-word counting.
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../testing.js';
import type { Tagger, TagSpan } from '../../types.js';
import { buildUrlLists, urlFilter, urlFilterOptions, urlFilterRules } from './url-filter.js';
import { lenientNetloc, PublicSuffixList } from './url/psl.js';

const psl = new PublicSuffixList();
const { dir, cleanup } = tempDir('assay-urlfilter-');
afterAll(cleanup);

const firstReason = (url: string, o: object = {}) =>
  urlFilterRules(url, buildUrlLists(urlFilterOptions.parse(o)), 2).find((r) => r.fail)?.rule ?? 'kept';

describe('tldextract semantics', () => {
  it('splits hosts on ICANN public suffixes, wildcards and exceptions included', () => {
    expect(psl.extract('https://a.b.example.co.uk/x')).toEqual({ registeredDomain: 'example.co.uk', fqdn: 'a.b.example.co.uk' });
    expect(psl.extract('http://foo.bar.ck')).toEqual({ registeredDomain: 'foo.bar.ck', fqdn: 'foo.bar.ck' }); // *.ck
    expect(psl.extract('http://www.ck')).toEqual({ registeredDomain: 'www.ck', fqdn: 'www.ck' }); // !www.ck
    expect(psl.extract('http://x.xn--fiqs8s/')).toEqual({ registeredDomain: 'x.xn--fiqs8s', fqdn: 'x.xn--fiqs8s' }); // 中国
    expect(psl.extract('https://blocke.dcom/a')).toEqual({ registeredDomain: '', fqdn: '' });
    expect(psl.extract('http://1.2.3.4:80/')).toEqual({ registeredDomain: '', fqdn: '' });
    expect(psl.extract('HTTP://WWW.Example.COM')).toEqual({ registeredDomain: 'Example.COM', fqdn: 'WWW.Example.COM' });
  });

  it('answers a host seen before as it did the first time, also once its memo of hosts has started over', () => {
    const memo = new PublicSuffixList();
    // 5,000 hosts: more than the memo keeps, so it starts over once.
    const hosts = Array.from({ length: 5000 }, (_, i) => `${i % 3 === 0 ? 'WWW.' : ''}h${i}.${['co.uk', 'ck', 'www.ck', 'com', 'dcom'][i % 5]}`);
    const first = hosts.map((h, i) => memo.extract(`https://${h}/page-${i}?q=${i}`));
    for (const [i, h] of hosts.entries()) {
      expect(memo.extract(`http://user@${h}:80#x`), h).toEqual(first[i]);
      if (i % 100 === 0) expect(first[i], h).toEqual(new PublicSuffixList().extract(`//${h}`));
    }
  });

  it('reads the host like lenient_netloc', () => {
    expect(lenientNetloc('user:pw@www.a.com:8080/p?q#f')).toBe('www.a.com');
    expect(lenientNetloc('//cdn.a.com/x')).toBe('cdn.a.com');
    expect(lenientNetloc('a.com.')).toBe('a.com');
  });
});

describe('URLFilter rules', () => {
  it('checks domains, hosts, URLs, banned words, soft words and subwords in upstream order', () => {
    const o = { extra_domains: ['blocked.com', 'badsubdomain.nice.com'], extra_urls: ['https://x.org/p'] };
    expect(firstReason('https://hey.blocked.com/a', o)).toBe('domain');
    expect(firstReason('https://badsubdomain.nice.com/', o)).toBe('subdomain');
    expect(firstReason('https://x.org/p', o)).toBe('url');
    expect(firstReason('https://site.com/xxx/videos', o)).toBe('hard_blacklisted');
    // URL words keep their case, so "XXX" is no banned word; the lowercased subword search still finds it.
    expect(firstReason('https://site.com/XXX/videos', o)).toBe('blacklisted_subword');
    expect(firstReason('https://site.com/XXX/videos', { ...o, banned_subwords: [], use_integrated_lists: false })).toBe('kept');
    expect(firstReason('https://nice.com/some-sub-url?with=stuff', o)).toBe('kept');
  });

  it('reads list files (plain or gzipped), skipping # lines and blank lines', () => {
    writeFileSync(join(dir, 'domains.txt'), '# comment\nevil.org\n\n  spaced.net  \n');
    writeFileSync(join(dir, 'words.txt.gz'), gzipSync('#ignored\nZebra-Stripe\n'));
    const o = urlFilterOptions.parse({ domains_files: 'domains.txt', banned_words_files: ['words.txt.gz'], use_integrated_lists: false });
    const tagged = urlFilter.create(o, { seed: 0, cwd: dir });
    expect(tagged).toBeInstanceOf(Promise);
    return (tagged as Promise<Tagger>).then((t) => {
      const tag = (url: string | undefined) =>
        (t.tag({ id: '1', text: 'x', source: '', metadata: url === undefined ? {} : { url }, record: {} }) as TagSpan[]).filter((s) => s.type.startsWith('reason_') || s.type === 'missing_url').map((s) => s.type);
      expect(tag('http://a.evil.org/')).toEqual(['reason_domain']);
      expect(tag('http://spaced.net')).toEqual(['reason_domain']);
      expect(tag('http://ok.com/zebrastripe')).toEqual(['reason_hard_blacklisted']);
      expect(tag('http://ok.dcom/')).toEqual([]); // no "" entry from the blank line
      expect(tag(undefined)).toEqual(['missing_url']);
    });
  });

  it('reuses the lists built for the same options and unchanged files from file to file; a changed file is read again', async () => {
    const file = join(dir, 'reuse.txt');
    const when = new Date('2026-01-02T03:04:05Z');
    writeFileSync(file, 'first.org\n');
    utimesSync(file, when, when);
    const o = urlFilterOptions.parse({ domains_files: 'reuse.txt', use_integrated_lists: false });
    const reason = async (url: string): Promise<string[]> => {
      const t = await urlFilter.create(o, { seed: 0, cwd: dir });
      return (t.tag({ id: '1', text: 'x', source: '', metadata: { url }, record: {} }) as TagSpan[]).filter((s) => s.type.startsWith('reason_')).map((s) => s.type);
    };
    expect(await reason('http://first.org/')).toEqual(['reason_domain']);
    // Same size and time: the next file's tagger gets the lists already built, not the file's new bytes.
    writeFileSync(file, 'other.org\n');
    utimesSync(file, when, when);
    expect(await reason('http://first.org/')).toEqual(['reason_domain']);
    expect(await reason('http://other.org/')).toEqual([]);
    // A real edit changes the file's time: read again.
    utimesSync(file, when, new Date(when.getTime() + 5000));
    expect(await reason('http://first.org/')).toEqual([]);
    expect(await reason('http://other.org/')).toEqual(['reason_domain']);
    // A list file that disappears is an error naming it, every time.
    const gone = urlFilterOptions.parse({ domains_files: 'gone.txt', use_integrated_lists: false });
    for (let i = 0; i < 2; i++) await expect(urlFilter.create(gone, { seed: 0, cwd: dir })).rejects.toMatchObject({ code: 'IO', file: join(dir, 'gone.txt') });
  });

  it('counts soft-banned words against the threshold', () => {
    const o = { soft_banned_words: ['sexy', 'hot'], use_integrated_lists: false, soft_word_threshold: 2 };
    const rules = urlFilterRules('http://a.com/hot-and-sexy', buildUrlLists(urlFilterOptions.parse(o)), 2);
    expect(rules.find((r) => r.rule === 'soft_blacklisted')).toEqual({ rule: 'soft_blacklisted', value: 2, fail: true });
  });
});
