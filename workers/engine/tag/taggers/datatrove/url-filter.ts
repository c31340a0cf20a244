// url_filter: DataTrove's URLFilter (datatrove-spec §8) over metadata.url, with user-supplied block lists.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { AssayError } from '../../../errors.js';
import { errorText, openDecoded } from '../../../io/source.js';
import { fileStamp } from '../../../io/stamp.js';
import { pyStrip } from '../../../text/python.js';
import type { TagDocument, Tagger, TaggerSpec, TagSpan } from '../../types.js';
import { filterOutputs, filterSpans, profileOption, type RuleOutcome } from './common.js';
import { AhoCorasick } from './url/aho-corasick.js';
import { BANNED_SUBWORDS, BANNED_WORDS, SOFT_BANNED_WORDS } from './url/lists.js';
import { PublicSuffixList } from './url/psl.js';

const inline = (what: string) => z.array(z.string()).nullable().default(null).describe(what);
const files = (what: string) =>
  z
    .union([z.string().min(1), z.array(z.string().min(1))])
    .default([])
    .transform((v) => (typeof v === 'string' ? [v] : v))
    .describe(`${what}; one entry per line, # lines ignored; relative paths resolve against the working directory; .gz/.zst decompressed`);

export const urlFilterOptions = z
  .object({
    soft_word_threshold: z.number().int().default(2).describe('Drop when at least this many soft-banned words are URL words'),
    extra_domains: inline('Blocked domains, matched against the registered domain and the full host'),
    extra_urls: inline('Blocked URLs, matched exactly'),
    banned_words: inline('Banned URL words (normalized to lowercase alphanumerics)'),
    banned_subwords: inline('Banned substrings of the normalized URL'),
    soft_banned_words: inline('Soft-banned URL words'),
    domains_files: files('Domain block-list files (e.g. the UT1 blacklist "domains" file DataTrove bundles)'),
    urls_files: files('URL block-list files (e.g. the UT1 "urls" file)'),
    banned_words_files: files('Banned-word list files'),
    banned_subwords_files: files('Banned-subword list files'),
    soft_banned_words_files: files('Soft-banned word list files'),
    use_integrated_lists: z
      .boolean()
      .default(true)
      .describe("Add DataTrove's bundled word lists (banned_words, banned_subwords, soft_banned_words); its UT1 domain/URL tarball is not bundled: pass it via domains_files / urls_files"),
    public_suffix_list: z
      .string()
      .nullable()
      .default(null)
      .describe('public_suffix_list.dat to split hosts with (ICANN section); null = the bundled 2023-02 snapshot'),
    profile: profileOption.describe('Accepted for symmetry: URLFilter behaves the same in both profiles (only its bundled UT1 file names changed)'),
  })
  .strict();
export type UrlFilterOptions = z.output<typeof urlFilterOptions>;

const NON_ALNUM = /[^a-zA-Z0-9]+/g;
/** DataTrove `normalize`: drop non-alphanumerics, lowercase. */
export const normalizeUrlWord = (s: string): string => s.replace(NON_ALNUM, '').toLowerCase();

/**
 * DataTrove `parse_list`: skip `#` lines; words are normalized, domains and URLs stripped. Empty entries are dropped
 * (upstream would keep "" from a blank line, and "" matches every host without a public suffix).
 */
function parseList(lines: Iterable<string>, normalize: boolean, into: Set<string>): Set<string> {
  for (const x of lines) {
    if (x.startsWith('#')) continue;
    const v = normalize ? normalizeUrlWord(x) : pyStrip(x);
    if (v !== '') into.add(v);
  }
  return into;
}

async function readLines(file: string, field: string): Promise<string[]> {
  try {
    const source = await openDecoded(file);
    if (source.stream === null) return [];
    const chunks: Buffer[] = [];
    for await (const chunk of source.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/);
  } catch (e) {
    throw new AssayError('IO', `cannot read list: ${errorText(e)}`, { file, field, cause: e });
  }
}

export interface UrlLists {
  domains: Set<string>;
  urls: Set<string>;
  banned: Set<string>;
  soft: Set<string>;
  subwords: AhoCorasick;
  psl: PublicSuffixList;
}

const FILE_FIELDS = ['domains_files', 'urls_files', 'banned_words_files', 'banned_subwords_files', 'soft_banned_words_files'] as const;
type FileField = (typeof FILE_FIELDS)[number];

/** The lists from inline options, already-read list files and the integrated word lists. */
export function buildUrlLists(o: UrlFilterOptions, fileLines: Partial<Record<FileField, string[][]>> = {}, pslText?: string): UrlLists {
  const build = (inlineList: string[] | null, field: FileField, normalize: boolean, builtin: readonly string[]) => {
    const set = parseList(inlineList ?? [], normalize, new Set());
    for (const lines of fileLines[field] ?? []) parseList(lines, normalize, set);
    if (o.use_integrated_lists) parseList(builtin, normalize, set);
    return set;
  };
  return {
    domains: build(o.extra_domains, 'domains_files', false, []),
    urls: build(o.extra_urls, 'urls_files', false, []),
    banned: build(o.banned_words, 'banned_words_files', true, BANNED_WORDS),
    soft: build(o.soft_banned_words, 'soft_banned_words_files', true, SOFT_BANNED_WORDS),
    subwords: new AhoCorasick(build(o.banned_subwords, 'banned_subwords_files', true, BANNED_SUBWORDS)),
    psl: pslText === undefined ? new PublicSuffixList() : new PublicSuffixList(pslText),
  };
}

/** Reads the list files and the public suffix list, then builds the lists. */
export async function loadUrlLists(o: UrlFilterOptions, cwd: string): Promise<UrlLists> {
  const fileLines: Partial<Record<FileField, string[][]>> = {};
  for (const field of FILE_FIELDS) fileLines[field] = await Promise.all(o[field].map((f) => readLines(resolve(cwd, f), field)));
  let pslText: string | undefined;
  if (o.public_suffix_list !== null) {
    const file = resolve(cwd, o.public_suffix_list);
    pslText = await readFile(file, 'utf8').catch((e: unknown) => {
      throw new AssayError('IO', `cannot read public suffix list: ${errorText(e)}`, { file, field: 'public_suffix_list', cause: e });
    });
  }
  return buildUrlLists(o, fileLines, pslText);
}

/** Rule values in upstream order for one URL. */
export function urlFilterRules(url: string, lists: UrlLists, softThreshold: number): RuleOutcome[] {
  const info = lists.psl.extract(url);
  const words = new Set(url.split(/[^a-zA-Z0-9]+/));
  const flag = (rule: string, on: boolean): RuleOutcome => ({ rule, value: on ? 1 : 0, fail: on });
  // Both sides are sets, so counting URL words in the soft list equals upstream's count of soft words in the URL.
  let soft = 0;
  let hard = false;
  for (const w of words) {
    if (lists.soft.has(w)) soft++;
    if (!hard && lists.banned.has(w)) hard = true;
  }
  return [
    flag('domain', lists.domains.has(info.registeredDomain)),
    flag('subdomain', lists.domains.has(info.fqdn)),
    flag('url', lists.urls.has(url)),
    flag('hard_blacklisted', hard),
    { rule: 'soft_blacklisted', value: soft, fail: soft >= softThreshold },
    flag('blacklisted_subword', !lists.subwords.empty && lists.subwords.test(normalizeUrlWord(url))),
  ];
}

const RULES = [
  { rule: 'domain', measures: '1 when the registered domain (tldextract, ICANN suffixes) is blocked', range: '0 | 1' },
  { rule: 'subdomain', measures: '1 when the full host is blocked', range: '0 | 1' },
  { rule: 'url', measures: '1 when the exact URL is blocked', range: '0 | 1' },
  { rule: 'hard_blacklisted', measures: '1 when a URL word (split on non-alphanumerics, case kept) is banned', range: '0 | 1' },
  { rule: 'soft_blacklisted', measures: 'Soft-banned words among the URL words', range: '≥ 0' },
  { rule: 'blacklisted_subword', measures: '1 when a banned subword occurs in the normalized URL', range: '0 | 1' },
];

export const urlFilter: TaggerSpec<UrlFilterOptions> = {
  name: 'url_filter',
  description: 'DataTrove URLFilter on metadata.url: blocked domains/URLs, banned words, soft-banned words, banned subwords',
  outputs: [
    ...filterOutputs(RULES),
    { type: 'missing_url', description: 'Score 1 when metadata.url is absent or not a string (DataTrove asserts it); the document is kept', range: '1', level: 'document' },
  ],
  options: urlFilterOptions,
  create(options, ctx) {
    const lists = listsFor(options, ctx.cwd);
    return lists instanceof Promise ? lists.then((l) => urlTagger(l, options)) : urlTagger(lists, options);
  },
};

/**
 * Lists built lately, by options and the list files' identities (path, size, mtime): a tag run creates its taggers
 * anew for every file, and building the lists took ≈ 4 ms with the built-in ones alone, far more with a block list
 * of millions of domains. A failed load is not kept, so the next file reports its error again.
 */
const built = new Map<string, UrlLists | Promise<UrlLists>>();
const BUILT_MAX = 2;

function listsFor(o: UrlFilterOptions, cwd: string): UrlLists | Promise<UrlLists> {
  const paths = [...FILE_FIELDS.flatMap((f) => o[f]), ...(o.public_suffix_list === null ? [] : [o.public_suffix_list])].map((f) => resolve(cwd, f));
  const ids = paths.map(fileStamp);
  if (ids.includes(null)) return loadUrlLists(o, cwd); // reports the file and field
  const key = JSON.stringify([o, ids]);
  let lists = built.get(key);
  if (lists !== undefined) built.delete(key);
  else if (paths.length === 0) lists = buildUrlLists(o);
  else {
    const loading = loadUrlLists(o, cwd);
    loading.catch(() => built.get(key) === loading && built.delete(key));
    lists = loading;
  }
  built.set(key, lists);
  for (const k of built.keys()) if (built.size > BUILT_MAX) built.delete(k);
  return lists;
}

/** A missing metadata.url makes upstream fail an assert; here the document is kept and flagged `missing_url`. */
function urlTagger(lists: UrlLists, options: UrlFilterOptions): Tagger {
  return {
    tag(doc: TagDocument): TagSpan[] {
      const url = doc.metadata['url'];
      const n = doc.text.length;
      if (typeof url !== 'string' || url === '') {
        return [
          { start: 0, end: n, type: 'missing_url', score: 1 },
          { start: 0, end: n, type: 'kept', score: 1 },
        ];
      }
      return filterSpans(n, urlFilterRules(url, lists, options.soft_word_threshold));
    },
  };
}
