// URL and domain blocklist taggers over user-supplied list files (Dolma's BaseUrlTagger / BaseDomainTagger).
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { AssayError } from '../../../errors.js';
import { errorText, openDecoded } from '../../../io/source.js';
import type { TagDocument, TaggerSpec } from '../../types.js';
import { cleanDomain, cleanUrl } from './urls.js';
import { docOutput, isPyWs } from './text.js';

export const blocklistOptions = z
  .object({
    lists: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .transform((v) => (typeof v === 'string' ? [v] : v))
      .describe('Blocklist file(s), one entry per line; relative paths resolve against the working directory; .gz/.zst are decompressed'),
    format: z
      .enum(['hosts', 'verbatim'])
      .default('hosts')
      .describe('"hosts": hosts-file, bare host/URL and ||host^ lines, # ; ! comments (Dolma parse_line); "verbatim": each line as is, # comments (link_blocklist_phishing_v1)'),
  })
  .strict();
export type BlocklistOptions = z.output<typeof blocklistOptions>;

const HEXISH = /^[0-9a-f.:]+/;

/** Length of `(([a-z0-9\-_]+\.?){2,})` at i (greedy, as re.match takes it), or -1 when it cannot match. */
function hostRun(ln: string, i: number): number {
  const isHostChar = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;
  let j = i;
  let chars = 0;
  while (j < ln.length && isHostChar(ln.charCodeAt(j))) {
    while (j < ln.length && isHostChar(ln.charCodeAt(j))) {
      j++;
      chars++;
    }
    if (ln.charCodeAt(j) === 0x2e) j++;
  }
  // The nested group needs two pieces, i.e. two host characters; "localhost|localdomain" add nothing.
  return chars >= 2 ? j - i : -1;
}

/**
 * Dolma `BaseUrlTagger.parse_line` (lines lowercased and stripped). Its regexes are applied by hand
 * because `(([a-z0-9\-_]+\.?){2,})\^` backtracks exponentially on a long name without the "^".
 * Hosts-file lines also yield their IP: Dolma's localhost filter is an un-interpolated
 * `r"^{IGNORE_IP_REGEX.pattern}"` that never matches [Dolma quirk], so 0.0.0.0 and 127.0.0.1 are
 * listed too. Unparseable lines are skipped (Dolma logs them).
 */
export function parseHostsLine(raw: string, clean: (url: string) => string[]): string[] {
  const ln = pyStripLower(raw);
  if (ln === '' || ln.startsWith('#') || ln.startsWith(';') || ln.startsWith('!')) return [];
  const ip = HEXISH.exec(ln)?.[0];
  if (ip !== undefined && ip.length < ln.length && isPyWs(ln.charCodeAt(ip.length))) {
    let i = ip.length;
    while (i < ln.length && isPyWs(ln.charCodeAt(i))) i++;
    const len = hostRun(ln, i);
    if (len > 0) {
      if (isIP(ip) === 0) return [];
      const host = ln.slice(i, i + len);
      return host === 'localhost' || host === 'localdomain' ? [ip] : [ip, ...clean(host)];
    }
  }
  if (hostRun(ln, 0) > 0) return clean(ln);
  let bars = 0;
  while (ln.charCodeAt(bars) === 0x7c) bars++;
  const len = bars > 0 ? hostRun(ln, bars) : -1;
  if (len > 0 && ln.charCodeAt(bars + len) === 0x5e) return [ln.slice(bars, bars + len)];
  return [];
}

function pyStripLower(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPyWs(s.charCodeAt(a))) a++;
  while (b > a && isPyWs(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b).toLowerCase();
}

/** All entries of the list files, read once per tagger instance. */
export async function loadBlocklist(options: BlocklistOptions, cwd: string, clean: (url: string) => string[]): Promise<Set<string>> {
  const entries = new Set<string>();
  const files = options.lists.map((p) => resolve(cwd, p));
  for (const file of files) {
    const text = await readText(file);
    for (const line of text.split(/\r\n|\r|\n/)) {
      if (options.format === 'verbatim') {
        const ln = pyStripLower(line);
        if (!ln.startsWith('#')) entries.add(ln);
      } else for (const e of parseHostsLine(line, clean)) entries.add(e);
    }
  }
  entries.delete('');
  if (entries.size === 0) throw new AssayError('CONFIG', `blocklist is empty: no entry parsed from ${files.join(', ')}`, { field: 'lists' });
  return entries;
}

async function readText(file: string): Promise<string> {
  let source;
  try {
    source = await openDecoded(file);
  } catch (e) {
    throw new AssayError('IO', `cannot read blocklist: ${errorText(e)}`, { file, field: 'lists', cause: e });
  }
  if (source.stream === null) return '';
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of source.stream) chunks.push(chunk as Buffer);
  } catch (e) {
    source.destroy();
    throw new AssayError('IO', `cannot read blocklist: ${errorText(e)}`, { file, field: 'lists', cause: e });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `metadata.url` → span over the whole text when any cleaned form of it is listed. */
function tagByUrl(entries: Set<string>, clean: (url: string) => string[]) {
  return (doc: TagDocument) => {
    const url = doc.metadata['url'];
    if (typeof url !== 'string') return [];
    return clean(url).some((u) => entries.has(u)) ? [{ start: 0, end: doc.text.length, type: 'url', score: 1 }] : [];
  };
}

export const urlBlocklistV1: TaggerSpec<BlocklistOptions> = {
  name: 'url_blocklist_v1',
  description: 'Flags documents whose metadata.url (host[:port]/path, no query) is in user-supplied blocklists',
  outputs: [docOutput('url', 'Score 1 when the normalised URL is listed; absent otherwise', '1')],
  options: blocklistOptions,
  async create(options, ctx) {
    const entries = await loadBlocklist(options, ctx.cwd, cleanUrl);
    return { tag: tagByUrl(entries, cleanUrl) };
  },
};

export const domainBlocklistV1: TaggerSpec<BlocklistOptions> = {
  name: 'domain_blocklist_v1',
  description: 'Flags documents whose metadata.url host (with or without www.) is in user-supplied blocklists',
  outputs: [docOutput('url', 'Score 1 when the host is listed (Dolma lstrip("www.") rule on both sides); absent otherwise', '1')],
  options: blocklistOptions,
  async create(options, ctx) {
    const entries = await loadBlocklist(options, ctx.cwd, cleanDomain);
    return { tag: tagByUrl(entries, cleanDomain) };
  },
};
