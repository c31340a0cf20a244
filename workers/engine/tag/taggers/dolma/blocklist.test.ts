// URL / domain blocklist taggers: list parsing (hosts, bare, ABP), URL normalisation, file errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { isAssayError } from '../../../errors.js';
import { tempDir } from '../../../testing.js';
import type { TaggerSpec } from '../../types.js';
import { blocklistOptions, domainBlocklistV1, parseHostsLine, urlBlocklistV1, type BlocklistOptions } from './blocklist.js';
import { doc } from './test-helpers.js';
import { cleanDomain, cleanUrl } from './urls.js';

const tmp = tempDir('assay-blocklist-');
afterAll(tmp.cleanup);

const LIST = [
  '# comment',
  '; comment',
  '! comment',
  '',
  '0.0.0.0 Ads.Example.com  # trailing',
  '127.0.0.1 localhost',
  'tracker.net',
  'site.org/bad/path/',
  '||abp.example^$third-party',
  'web.com',
  'not a host line',
].join('\r\n');
writeFileSync(join(tmp.dir, 'list.txt'), LIST);
writeFileSync(join(tmp.dir, 'list.txt.gz'), gzipSync(LIST));
writeFileSync(join(tmp.dir, 'empty.txt'), '# nothing\n\n');

async function flagged(spec: TaggerSpec<BlocklistOptions>, options: unknown, urls: string[]): Promise<boolean[]> {
  const tagger = await spec.create(blocklistOptions.parse(options), { seed: 1, cwd: tmp.dir });
  return urls.map((url) => tagger.tag(doc('text', { metadata: { url } })).length === 1);
}

/** The error `create()` rejects with (null if it succeeds). */
async function createError(options: unknown): Promise<unknown> {
  try {
    await urlBlocklistV1.create(blocklistOptions.parse(options), { seed: 1, cwd: tmp.dir });
    return null;
  } catch (e) {
    return e;
  }
}

describe('list lines (Dolma parse_line)', () => {
  it('hosts lines give the IP (localhost filter never fires) and the host; ABP gives the name', () => {
    expect(parseHostsLine('0.0.0.0 ads.example.com', cleanUrl)).toEqual(['0.0.0.0', 'ads.example.com']);
    expect(parseHostsLine('127.0.0.1 localhost', cleanUrl)).toEqual(['127.0.0.1']);
    expect(parseHostsLine('::1 ip6-localhost', cleanUrl)).toEqual(['::1', 'ip6-localhost']);
    expect(parseHostsLine('999.1.1.1 bad.ip', cleanUrl)).toEqual([]);
    expect(parseHostsLine('||abp.example^', cleanUrl)).toEqual(['abp.example']);
    expect(parseHostsLine('||' + 'a'.repeat(5000) + '!', cleanUrl)).toEqual([]); // no exponential backtracking
    expect(parseHostsLine('  Site.ORG/Path/ ', cleanUrl)).toEqual(['site.org/path']);
    expect(parseHostsLine('# x', cleanUrl)).toEqual([]);
  });
});

describe('URL normalisation', () => {
  it('host[:port][path], no query, no trailing slash, lowercased, dot segments removed', () => {
    expect(cleanUrl('https://User@WWW.Example.com:8080/A/./b/../C/?q=1#f')).toEqual(['www.example.com:8080/a/c']);
    expect(cleanUrl('example.com')).toEqual(['example.com']);
    expect(cleanUrl('http://bücher.de/straße')).toEqual(['xn--bcher-kva.de/stra%c3%9fe']);
    expect(cleanUrl('http://x.com:99999/')).toEqual([]);
    expect(cleanUrl('mailto:someone')).toEqual([]);
    expect(cleanUrl('   ')).toEqual([]);
  });

  it('domains: lstrip("www.") strips a character set (web.com → eb.com), plus the www. form', () => {
    expect(cleanDomain('https://www.web.com/page')).toEqual(['eb.com', 'www.eb.com']);
    expect(cleanDomain('http://sub.example.org')).toEqual(['sub.example.org', 'www.sub.example.org']);
  });
});

describe('url_blocklist_v1 / domain_blocklist_v1', () => {
  it('flags listed URLs (relative list path, CRLF lines)', async () => {
    const urls = ['http://ads.example.com/x', 'https://tracker.net', 'https://site.org/bad/path?x=1', 'https://site.org/other', 'http://0.0.0.0/', 'https://abp.example/', 'https://fine.org'];
    expect(await flagged(urlBlocklistV1, { lists: 'list.txt' }, urls)).toEqual([false, true, true, false, true, true, false]);
  });

  it('domain tagger matches any path and the www./w-stripped forms', async () => {
    const urls = ['http://ads.example.com/x', 'https://www.tracker.net/a/b', 'https://site.org/anything', 'https://eb.com', 'https://fine.org'];
    expect(await flagged(domainBlocklistV1, { lists: ['list.txt.gz'] }, urls)).toEqual([true, true, true, true, false]);
  });

  it('verbatim lists keep lines as written', async () => {
    expect(await flagged(urlBlocklistV1, { lists: 'list.txt', format: 'verbatim' }, ['http://tracker.net', 'http://site.org/bad/path/'])).toEqual([true, false]);
  });

  it('documents without a string metadata.url are not flagged', async () => {
    const tagger = await urlBlocklistV1.create(blocklistOptions.parse({ lists: 'list.txt' }), { seed: 1, cwd: tmp.dir });
    expect(tagger.tag(doc('t', { metadata: { url: 42 } }))).toEqual([]);
    expect(tagger.tag(doc('t'))).toEqual([]);
  });

  it('a missing list file is an IO error naming it', async () => {
    const err = await createError({ lists: 'nope.txt' });
    expect(isAssayError(err) && err.code === 'IO' && err.file === join(tmp.dir, 'nope.txt')).toBe(true);
    expect(String(err)).toContain('nope.txt');
  });

  it('a list with no entries is a config error', async () => {
    const err = await createError({ lists: 'empty.txt' });
    expect(isAssayError(err) && err.code === 'CONFIG').toBe(true);
    expect(String(err)).toContain('empty.txt');
  });

  it('options: lists required, unknown keys rejected', () => {
    expect(blocklistOptions.safeParse({}).success).toBe(false);
    expect(blocklistOptions.safeParse({ lists: [] }).success).toBe(false);
    expect(blocklistOptions.safeParse({ lists: 'a', extra: 1 }).success).toBe(false);
    expect(blocklistOptions.parse({ lists: 'a' })).toEqual({ lists: ['a'], format: 'hosts' });
  });
});
