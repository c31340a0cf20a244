// tldextract's domain split (registered_domain, fqdn) over a Public Suffix List, ICANN rules only (its default).
import { domainToUnicode } from 'node:url';
import { pyStrip } from '../../../../text/python.js';
import { PSL_ICANN } from './psl-data.js';

interface Node {
  children: Map<string, Node>;
  end: boolean;
}
const node = (): Node => ({ children: new Map(), end: false });

/** Hosts whose split extract keeps (then it starts over): a few hundred KB at most. */
const HOSTS_KEPT = 4096;

const SCHEME_CHARS = /^[A-Za-z0-9+\-.]*$/;

/** tldextract `lenient_netloc`: host of a URL with or without scheme, userinfo, port, path, query or fragment. */
export function lenientNetloc(url: string): string {
  let rest = url;
  const dbl = url.indexOf('//');
  if (dbl === 0) rest = url.slice(2);
  else if (dbl >= 2 && url[dbl - 1] === ':' && SCHEME_CHARS.test(url.slice(0, dbl - 1))) rest = url.slice(dbl + 2);
  for (const sep of ['/', '?', '#']) {
    const i = rest.indexOf(sep);
    if (i >= 0) rest = rest.slice(0, i);
  }
  rest = rest.slice(rest.lastIndexOf('@') + 1);
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close >= 0) return rest.slice(0, close + 1);
  }
  const colon = rest.indexOf(':');
  const host = pyStrip(colon >= 0 ? rest.slice(0, colon) : rest);
  return host.replace(/[.\u3002\uff0e\uff61]+$/, '');
}

/** tldextract `_decode_punycode`: lowercase, and decode `xn--` labels when they are valid punycode. */
function decodeLabel(label: string): string {
  const lower = label.toLowerCase();
  if (!lower.startsWith('xn--')) return lower;
  const decoded = domainToUnicode(lower);
  return decoded === '' ? lower : decoded;
}

export interface DomainInfo {
  /** `domain.suffix`, or "" when the host has no known public suffix or no domain label. */
  readonly registeredDomain: string;
  /** `subdomain.domain.suffix` under the same condition. */
  readonly fqdn: string;
}

export class PublicSuffixList {
  private readonly root = node();
  /**
   * Rules not yet in the trie, by their last label: a top-level label's subtree is built when a host first reaches it.
   * Building all 7,380 ICANN rules' nodes took 23–31 ms of every url_filter's start-up; a run meets a few top-level labels.
   */
  private readonly pending = new Map<string, string[]>();

  /** `text`: a public_suffix_list.dat file, or bare rules separated by whitespace; PRIVATE section rules are ignored. */
  constructor(text: string = PSL_ICANN) {
    const icann = text.split('===BEGIN PRIVATE DOMAINS===')[0] ?? '';
    for (const raw of icann.split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('//')) continue;
      for (const rule of line.split(/\s+/)) {
        const top = rule.slice(rule.lastIndexOf('.') + 1);
        const rules = this.pending.get(top);
        if (rules === undefined) this.pending.set(top, [rule]);
        else rules.push(rule);
      }
    }
  }

  private add(rule: string): void {
    let n = this.root;
    for (const label of rule.split('.').reverse()) {
      let child = n.children.get(label);
      if (child === undefined) n.children.set(label, (child = node()));
      n = child;
    }
    n.end = true;
  }

  /** The root's child `label`, its pending rules added first. */
  private top(label: string): Node | undefined {
    const rules = this.pending.get(label);
    if (rules !== undefined) {
      this.pending.delete(label);
      for (const rule of rules) this.add(rule);
    }
    return this.root.children.get(label);
  }

  /** Whether node `n` has the child `label` (at the root, after building it). */
  private has(n: Node, label: string): boolean {
    return (n === this.root ? this.top(label) : n.children.get(label)) !== undefined;
  }

  /** tldextract `suffix_index`: index of the first suffix label (labels.length when there is none). */
  private suffixIndex(labels: string[]): number {
    let n = this.root;
    let i = labels.length;
    let j = i;
    for (let k = labels.length - 1; k >= 0; k--) {
      const label = decodeLabel(labels[k] as string);
      const child = n === this.root ? this.top(label) : n.children.get(label);
      if (child !== undefined) {
        j--;
        n = child;
        if (n.end) i = j;
        continue;
      }
      if (this.has(n, '*')) return this.has(n, `!${label}`) ? j : j - 1;
      break;
    }
    return i;
  }

  /** extract's answers by host: a crawl's documents come from comparatively few hosts. */
  private readonly byHost = new Map<string, DomainInfo>();

  extract(url: string): DomainInfo {
    const netloc = lenientNetloc(url).replace(/[\u3002\uff0e\uff61]/g, '.');
    let info = this.byHost.get(netloc);
    if (info === undefined) {
      if (this.byHost.size >= HOSTS_KEPT) this.byHost.clear();
      this.byHost.set(netloc, (info = this.split(netloc)));
    }
    return info;
  }

  private split(netloc: string): DomainInfo {
    const labels = netloc.split('.');
    const si = this.suffixIndex(labels);
    const suffix = si < labels.length ? labels.slice(si).join('.') : '';
    const domain = si > 0 ? (labels[si - 1] as string) : '';
    const sub = si >= 2 ? labels.slice(0, si - 1).join('.') : '';
    if (suffix === '' || domain === '') return { registeredDomain: '', fqdn: '' };
    return { registeredDomain: `${domain}.${suffix}`, fqdn: [sub, domain, suffix].filter((x) => x !== '').join('.') };
  }
}
