// A small tldextract stand-in: the fqdn and public suffix of a URL, for the stats `fqdn` / `suffix` groups.
//
// Limits (DataTrove uses tldextract with the full ICANN section of the Public Suffix List):
// - multi-label suffixes are known only from the table below (common ccTLD second levels such as
//   `co.uk`, `com.au`, `co.jp`); others split one label too far right (`a.b.foo.ke` → suffix `ke`);
// - the last label of a dotted host that looks like a TLD (letters, or `xn--…`) is taken as the
//   suffix, whereas tldextract gives suffix "" (and so fqdn "") for TLDs missing from the list; a
//   single-label host (`localhost`, but also a bare `com`) is all domain;
// - no wildcard/exception PSL rules, no punycode decoding; labels keep their case.

/** The second-level labels registered under a ccTLD that the PSL lists as public suffixes. */
const SECOND_LEVEL: Record<string, string> = {
  uk: 'ac co gov ltd me mod net nhs org plc police sch',
  au: 'asn com edu gov id net org',
  nz: 'ac co cri geek gen govt health iwi kiwi maori mil net org parliament school',
  jp: 'ac ad co ed go gr lg ne or',
  kr: 'ac co es go hs kg mil ms ne or pe re sc',
  cn: 'ac com edu gov mil net org',
  hk: 'com edu gov idv net org',
  tw: 'club com ebiz edu game gov idv mil net org',
  sg: 'com edu gov net org per',
  my: 'biz com edu gov mil name net org',
  in: 'ac co edu firm gen gov ind mil net nic org res',
  id: 'ac biz co desa go mil my net or sch web',
  th: 'ac co go in mi net or',
  ph: 'com edu gov i mil net ngo org',
  vn: 'ac biz com edu gov health info int name net org pro',
  pk: 'biz com edu fam gob gok gon gop gos gov info net org web',
  il: 'ac co gov idf k12 muni net org',
  tr: 'av bbs bel biz com dr edu gen gov info k12 kep mil name net org pol tel tv web',
  sa: 'com edu gov med net org pub sch',
  ae: 'ac co gov mil net org sch',
  eg: 'com edu eun gov mil name net org sci',
  za: 'ac agric alt co edu gov grondar law mil net ngo nic nis nom org school tm web',
  ng: 'com edu gov i mil mobi name net org sch',
  ke: 'ac co go info me mobi ne or sc',
  br: 'adm adv arq art blog bio com coop eco edu eng esp etc far flog fot g12 gov ind inf jor lel med mil mus net nom not ntr odo org ppg pro psc psi rec slg srv tmp tur tv vet vlog wiki zlg',
  ar: 'bet com coop edu gob gov int mil musica mutual net org senasa tur',
  mx: 'com edu gob net org',
  co: 'com edu gov int mil net nom org',
  pe: 'com edu gob mil net nom org',
  ve: 'arts bib co com e12 edu firm gob gov info int mil net nom org rar rec store tec web',
  cl: 'co gob gov mil',
  ua: 'com edu gov in net org',
  ru: 'ac edu gov int mil test',
  pl: 'agro art biz com edu gmina gov info mil net ngo nom org priv sklep targi waw',
  es: 'com edu gob nom org',
  fr: 'asso com gouv nom prd tm',
  pt: 'com edu gov int net nome org publ',
  gr: 'com edu gov net org',
  ro: 'arts com firm info nom nt org rec store tm www',
  hu: 'agrar bolt casino city co erotica film forum games hotel info ingatlan jogasz konyvelo lakas media news org priv reklam sex shop sport suli szex tm tozsde utazas video',
  at: 'ac co gv or',
  be: 'ac',
};

const MULTI = new Set<string>();
for (const [tld, labels] of Object.entries(SECOND_LEVEL)) for (const l of labels.split(' ')) if (l) MULTI.add(`${l}.${tld}`);

const TLD_LIKE = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;
const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const DOTS = /[.\u3002\uff0e\uff61]/;

export interface DomainParts {
  subdomain: string;
  domain: string;
  suffix: string;
  /** `subdomain.domain.suffix` without empty parts; "" when there is no domain or no suffix. */
  fqdn: string;
}

/** tldextract's `lenient_netloc`: the host of a URL that may lack a scheme, without port/userinfo. */
export function hostOf(url: string): string {
  let rest = url.trim();
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  else if (rest.startsWith('//')) rest = rest.slice(2);
  rest = rest.split(/[/?#]/, 1)[0] ?? '';
  rest = rest.slice(rest.lastIndexOf('@') + 1);
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close >= 0) return rest.slice(0, close + 1);
  }
  return (rest.split(':', 1)[0] ?? '').trim().replace(/[.\u3002\uff0e\uff61]+$/, '');
}

/** Split a URL's host into subdomain / registrable domain / public suffix (see the module's limits). */
export function extractDomain(url: string): DomainParts {
  const host = hostOf(url);
  const none = { subdomain: '', domain: host, suffix: '', fqdn: '' };
  if (host === '' || host.startsWith('[') || IPV4.test(host)) return none;
  const labels = host.split(DOTS);
  const lower = labels.map((l) => l.toLowerCase());
  let suffixLen = 0;
  const n = lower.length;
  if (n >= 2 && MULTI.has(`${lower[n - 2]}.${lower[n - 1]}`)) suffixLen = 2;
  else if (n >= 2 && TLD_LIKE.test(lower[n - 1] ?? '')) suffixLen = 1;
  // An unknown TLD (`localhost`) is all domain; a bare suffix (`co.uk`) has no domain: no fqdn either way.
  if (suffixLen === 0) return { subdomain: labels.slice(0, -1).join('.'), domain: labels[n - 1] ?? '', suffix: '', fqdn: '' };
  if (n <= suffixLen) return { subdomain: '', domain: '', suffix: labels.join('.'), fqdn: '' };
  const suffix = labels.slice(n - suffixLen).join('.');
  const domain = labels[n - suffixLen - 1] ?? '';
  const subdomain = labels.slice(0, n - suffixLen - 1).join('.');
  const fqdn = domain ? [subdomain, domain, suffix].filter(Boolean).join('.') : '';
  return { subdomain, domain, suffix, fqdn };
}
