// One WARC record to one Dolma document or one counted reason to skip it; URL filtering comes before any parsing.
import { createHash } from 'node:crypto';
import type { UrlLists } from '../tag/taggers/datatrove/url-filter.js';
import { urlFilterRules } from '../tag/taggers/datatrove/url-filter.js';
import { decideLanguage } from '../tag/taggers/fasttext/language-filter.js';
import type { FastTextModel } from '../tag/taggers/fasttext/index.js';
import { CharsetError, decodeHtml, isHtml, mimeType } from './charset.js';
import { extractMainText } from './extract/index.js';
import { HttpParseError, parseHttpResponse } from './http.js';
import type { WarcRecord } from './records.js';
import type { WarcCounts, WarcFileOptions } from './types.js';

export interface PageContext {
  options: WarcFileOptions;
  urlLists: UrlLists | null;
  lid: FastTextModel | null;
  dump: string | null;
  rel: string;
  /** Problems worth a log line (not ordinary skips like non-HTML). */
  log: (offset: number, message: string) => void;
}

export type PageOutcome = { skip: Exclude<keyof WarcCounts, 'records' | 'kept' | 'malformed' | 'truncated' | 'unknownCharset'>; unknownCharset?: boolean } | { doc: Record<string, unknown>; unknownCharset: boolean };

/** `<urn:uuid:…>` → the uuid; other ids keep their text without the angle brackets. */
export function documentId(recordId: string): string {
  const bare = recordId.replace(/^<|>$/g, '');
  return bare.startsWith('urn:uuid:') ? bare.slice('urn:uuid:'.length) : bare;
}

/** A page's text before the checks every document goes through, and what the metadata says of its bytes. */
interface PageText {
  text: string;
  unknownCharset: boolean;
  contentType: string | undefined;
  charset: string;
  /** The HTML's size and the HTTP payload (hashed only for a kept page); null for a WET record's text. */
  htmlBytes: number | null;
  payload: Buffer | null;
}
type Skip = Extract<PageOutcome, { skip: unknown }>;

/**
 * `response` records (HTML, main text extracted) and WET's `conversion` records (text Common Crawl already
 * extracted, read as it is, as DataTrove's WarcReader keeps them); every other record type is skipped.
 */
export function pageFromRecord(rec: WarcRecord, ctx: PageContext): PageOutcome {
  const type = (rec.headers.get('warc-type') ?? '').toLowerCase();
  if (type !== 'response' && type !== 'conversion') return { skip: 'nonResponse' };
  // WARC/1.0 drafts wrapped the URI in angle brackets; 1.1 does not.
  const url = (rec.headers.get('warc-target-uri') ?? '').replace(/^<|>$/g, '');
  if (ctx.urlLists !== null && ctx.options.urlFilter !== null && urlFilterRules(url, ctx.urlLists, ctx.options.urlFilter.soft_word_threshold).some((r) => r.fail)) return { skip: 'urlBlocked' };
  if (rec.block === null) {
    ctx.log(rec.offset, `${url}: ${rec.contentLength}-byte record over max_html_bytes, skipped unread`);
    return { skip: 'tooLarge' };
  }
  const page = type === 'conversion' ? conversionText(rec.block, rec, ctx, url) : responseText(rec.block, rec, ctx, url);
  return 'skip' in page ? page : documentOf(page, rec, ctx, url);
}

/** A WET record's block: text in the charset its Content-Type or a BOM names, else UTF-8 (Common Crawl's), else detected. */
function conversionText(block: Buffer, rec: WarcRecord, ctx: PageContext, url: string): PageText | Skip {
  if (block.length > ctx.options.maxHtmlBytes) {
    ctx.log(rec.offset, `${url}: ${block.length}-byte text over max_html_bytes (${ctx.options.maxHtmlBytes}), skipped`);
    return { skip: 'tooLarge' };
  }
  const contentType = rec.headers.get('content-type');
  const decoded = decode(block, contentType, rec, ctx, url, false);
  if ('skip' in decoded) return decoded;
  return { text: decoded.text.trim(), unknownCharset: decoded.unknownLabel !== null, contentType, charset: decoded.charset, htmlBytes: null, payload: null };
}

/** A response record's HTTP payload: an HTML page, decoded and its main text extracted. */
function responseText(block: Buffer, rec: WarcRecord, ctx: PageContext, url: string): PageText | Skip {
  let http;
  try {
    http = parseHttpResponse(block, ctx.options.maxHtmlBytes + 1);
  } catch (e) {
    if (!(e instanceof HttpParseError)) throw e;
    ctx.log(rec.offset, `${url}: ${e.message}`);
    return { skip: 'badHttp' };
  }
  if (http.status < 200 || http.status > 299) return { skip: 'httpStatus' };
  const contentType = http.headers.get('content-type');
  if (!isHtml(contentType, http.body)) return { skip: 'nonHtml' };
  if (http.body.length > ctx.options.maxHtmlBytes) {
    ctx.log(rec.offset, `${url}: ${http.body.length}-byte page over max_html_bytes (${ctx.options.maxHtmlBytes}), skipped`);
    return { skip: 'tooLarge' };
  }
  const decoded = decode(http.body, contentType, rec, ctx, url);
  if ('skip' in decoded) return decoded;
  const unknownCharset = decoded.unknownLabel !== null;
  let text: string;
  try {
    text = extractMainText(decoded.text, url, ctx.options.extractor).trim();
  } catch (e) {
    ctx.log(rec.offset, `${url}: extraction failed: ${(e as Error).message}`);
    return { skip: 'extractFailed', unknownCharset };
  }
  return { text, unknownCharset, contentType, charset: decoded.charset, htmlBytes: http.body.length, payload: http.payload };
}

function decode(body: Buffer, contentType: string | undefined, rec: WarcRecord, ctx: PageContext, url: string, html = true): ReturnType<typeof decodeHtml> | Skip {
  let decoded;
  try {
    decoded = decodeHtml(body, contentType, html);
  } catch (e) {
    if (!(e instanceof CharsetError)) throw e;
    ctx.log(rec.offset, `${url}: ${e.message}`);
    return { skip: 'undecodable' };
  }
  if (decoded.unknownLabel !== null) ctx.log(rec.offset, `${url}: unknown charset '${decoded.unknownLabel}', decoded as ${decoded.charset}`);
  return decoded;
}

/** The checks every page's text goes through (empty, too short, language), then its Dolma document. */
function documentOf(page: PageText, rec: WarcRecord, ctx: PageContext, url: string): PageOutcome {
  const { text, unknownCharset } = page;
  if (text === '') return { skip: 'empty', unknownCharset };
  if ([...text].length < ctx.options.minTextLength) return { skip: 'tooShort', unknownCharset };
  let language: string | null = null;
  let languageScore: number | null = null;
  const lang = ctx.options.language;
  if (lang !== null && ctx.lid !== null) {
    const d = decideLanguage(ctx.lid, text, { languages: lang.languages, language_threshold: lang.threshold, profile: 'head', label_only: lang.languages === undefined, keep_top_pairs_threshold: -1 });
    if (!d.kept) return { skip: 'wrongLanguage', unknownCharset };
    language = d.language;
    languageScore = Math.round(d.languageScore * 1e4) / 1e4;
  }
  const recordId = rec.headers.get('warc-record-id') ?? '';
  const warcDate = rec.headers.get('warc-date') ?? null;
  const doc = {
    // WARC requires a record id; a record without one still gets a stable id from its place in the file.
    id: recordId === '' ? `${ctx.rel}@${rec.offset}` : documentId(recordId),
    text,
    source: ctx.options.sourceName,
    added: ctx.options.added,
    created: warcDate,
    metadata: {
      url,
      dump: ctx.dump,
      warc_record_id: recordId,
      warc_date: warcDate,
      warc_filename: ctx.rel,
      content_type: mimeType(page.contentType),
      charset: page.charset,
      html_bytes: page.htmlBytes,
      raw_html_sha1: page.payload === null ? null : createHash('sha1').update(page.payload).digest('hex'),
      language,
      language_score: languageScore,
    },
  };
  return { doc, unknownCharset };
}
