// Options, per-file counts and results of `assay warc`, shared by the runner, its pool workers and the CLI.
import type { UrlFilterOptions } from '../tag/taggers/datatrove/url-filter.js';

export interface LanguageOptions {
  /** Keep only these lid.176 languages; undefined: label every page, drop none. */
  languages?: string[];
  threshold: number;
  modelPath?: string;
}

/** What every file of a run is processed with (travels to the pool workers as JSON). */
export interface WarcFileOptions {
  extractor: string;
  sourceName: string;
  /** metadata.dump; null: the `CC-MAIN-YYYY-WW` found in the file's path, if any. */
  dump: string | null;
  urlFilter: UrlFilterOptions | null;
  language: LanguageOptions | null;
  minTextLength: number;
  maxHtmlBytes: number;
  cwd: string;
  /** The run's start time, every document's `added`. */
  added: string;
}

export interface WarcTask {
  input: string;
  output: string;
  /** The input's name relative to its glob base: metadata.warc_filename and the output's relative name. */
  rel: string;
}

/** Per-file outcome of every record, each record counted once. */
export interface WarcCounts {
  records: number;
  /** warcinfo, request, metadata, resource, revisit…: neither a response nor a WET conversion, so not pages. */
  nonResponse: number;
  urlBlocked: number;
  httpStatus: number;
  badHttp: number;
  nonHtml: number;
  tooLarge: number;
  undecodable: number;
  extractFailed: number;
  empty: number;
  tooShort: number;
  wrongLanguage: number;
  kept: number;
  /** Damaged records skipped by the reader (wrong Content-Length, garbage) and truncated input. */
  malformed: number;
  truncated: number;
  /** Pages whose declared charset no decoder knows (decoded by the next source; they are still counted in their outcome). */
  unknownCharset: number;
}

export const emptyCounts = (): WarcCounts => ({
  records: 0, nonResponse: 0, urlBlocked: 0, httpStatus: 0, badHttp: 0, nonHtml: 0, tooLarge: 0, undecodable: 0,
  extractFailed: 0, empty: 0, tooShort: 0, wrongLanguage: 0, kept: 0, malformed: 0, truncated: 0, unknownCharset: 0,
});

export interface WarcFileResult {
  input: string;
  output: string;
  counts: WarcCounts;
  /** Decompressed WARC bytes read. */
  bytes: number;
  outputSize: number;
  outputSha256: string;
  /** sha256 of the WARC file as stored (run manifests). */
  inputSha256: string;
  /** Estimated tokens of the kept texts (⌈UTF-8 bytes / 4⌉ each). */
  tokens: number;
}

export interface WarcProgressDelta {
  compressedBytes: number;
  bytes: number;
  docs: number;
}
