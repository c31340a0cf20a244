import { describe, expect, it } from 'vitest';
import { extractDomain, hostOf } from './domain.js';

describe('extractDomain (tldextract subset)', () => {
  it('splits known multi-label and plain suffixes', () => {
    expect(extractDomain('test1.co.uk')).toEqual({ subdomain: '', domain: 'test1', suffix: 'co.uk', fqdn: 'test1.co.uk' });
    expect(extractDomain('https://user@www.News.BBC.co.uk:443/path?q#f')).toMatchObject({
      subdomain: 'www.News',
      domain: 'BBC',
      suffix: 'co.uk',
      fqdn: 'www.News.BBC.co.uk',
    });
    expect(extractDomain('http://a.b.example.com./x').fqdn).toBe('a.b.example.com');
    expect(extractDomain('//cdn.example.cz').suffix).toBe('cz');
  });
  it('gives no fqdn without a registrable domain', () => {
    expect(extractDomain('http://127.0.0.1:8080/')).toMatchObject({ domain: '127.0.0.1', suffix: '', fqdn: '' });
    expect(extractDomain('co.uk')).toMatchObject({ domain: '', suffix: 'co.uk', fqdn: '' });
    expect(extractDomain('http://localhost')).toMatchObject({ domain: 'localhost', suffix: '', fqdn: '' });
    expect(extractDomain('')).toMatchObject({ fqdn: '', suffix: '' });
    expect(hostOf('http://[::1]:80/')).toBe('[::1]');
  });
});
