// WARC/1.0 and 1.1 records from a decompressed stream: named headers, the block, and resynchronisation past damage.
import type { ByteReader } from './bytes.js';

export interface WarcRecord {
  /** Offset of the record's first byte in the decompressed stream (what error messages name). */
  offset: number;
  version: string;
  /** Header names lowercased (WARC names are case-insensitive); repeated names keep the first value. */
  headers: Map<string, string>;
  /** The record block, or null when it exceeded `maxBlockBytes` and was discarded unread. */
  block: Buffer | null;
  contentLength: number;
}

export type RecordProblem = 'truncated' | 'malformed';

export interface RecordReadOptions {
  maxBlockBytes: number;
  onProblem: (kind: RecordProblem, offset: number, message: string) => void;
}

const CRLF2 = Buffer.from('\r\n\r\n');
const MARK = Buffer.from('WARC/1.');
const MAX_HEADER = 1 << 20;
const WINDOW = 1 << 20;

/** Yields every well-formed record; a damaged one is reported through `onProblem` and reading goes on after it. */
export async function* readWarcRecords(r: ByteReader, options: RecordReadOptions): AsyncGenerator<WarcRecord> {
  let truncationReported = false;
  const opts: RecordReadOptions = {
    ...options,
    onProblem: (kind, offset, message) => {
      truncationReported ||= kind === 'truncated';
      options.onProblem(kind, offset, message);
    },
  };
  for (;;) {
    // Records are separated by CRLFCRLF; writers that add extra blank lines are tolerated.
    while ((await r.ensure(1)) && ((await r.peek(1))[0] === 0x0d || (await r.peek(1))[0] === 0x0a)) await r.skip(1);
    if (r.atEnd) break;
    const offset = r.offset;
    const head = await r.peek(MARK.length);
    if (!head.equals(MARK)) {
      if (r.atEnd || !(await r.ensure(MARK.length + 1))) {
        opts.onProblem(r.truncated ? 'truncated' : 'malformed', offset, `${r.buffered} stray byte(s) at the end of the input`);
        break;
      }
      opts.onProblem('malformed', offset, 'expected a WARC/1.x version line; skipping to the next record');
      await resync(r);
      continue;
    }
    const end = await r.indexOf(CRLF2, MAX_HEADER);
    if (end < 0) {
      const ended = !(await r.ensure(MAX_HEADER));
      opts.onProblem(ended && r.truncated ? 'truncated' : 'malformed', offset, ended ? 'the input ends inside a record header' : 'record header longer than 1 MiB');
      if (ended) break;
      await r.skip(MARK.length);
      await resync(r);
      continue;
    }
    // WARC headers are UTF-8 (1.1 allows IRIs in WARC-Target-URI); HTTP headers inside the block stay Latin-1.
    const lines = (await r.take(end + 4)).subarray(0, end).toString('utf8').split('\r\n');
    const version = (lines[0] as string).trim();
    const headers = parseHeaderLines(lines.slice(1));
    const cl = Number(headers.get('content-length'));
    if (!/^WARC\/1\.[01]$/.test(version) || !Number.isSafeInteger(cl) || cl < 0) {
      opts.onProblem('malformed', offset, !/^WARC\/1\.[01]$/.test(version) ? `unsupported version '${version}'` : `bad Content-Length '${headers.get('content-length') ?? ''}'`);
      await resync(r);
      continue;
    }
    if (cl > opts.maxBlockBytes) {
      const skipped = await r.skip(cl);
      const tail = await r.peek(4);
      if (skipped < cl) {
        opts.onProblem(r.truncated ? 'truncated' : 'malformed', offset, `the input ends inside the record's ${cl}-byte block`);
        break;
      }
      if (!tail.equals(CRLF2)) {
        opts.onProblem('malformed', offset, `no CRLFCRLF after the ${cl}-byte block: Content-Length is wrong`);
        await resync(r);
        continue;
      }
      await r.skip(4);
      yield { offset, version, headers, block: null, contentLength: cl };
      continue;
    }
    const got = await r.peek(cl + 4);
    if (got.length === cl + 4 && got.subarray(cl).equals(CRLF2)) {
      const block = Buffer.from(await r.take(cl));
      await r.skip(4);
      yield { offset, version, headers, block, contentLength: cl };
      continue;
    }
    if (got.length < cl + 4 && r.truncated) {
      opts.onProblem('truncated', offset, `the input ends inside the record's ${cl}-byte block (${r.truncated.message})`);
      break;
    }
    opts.onProblem('malformed', offset, `the ${cl}-byte block is not followed by CRLFCRLF: Content-Length is wrong; skipping to the next record`);
    await resync(r);
  }
  if (r.truncated && !truncationReported) opts.onProblem('truncated', r.offset, `the input stops early: ${r.truncated.message}`);
}

/** Moves to the next `WARC/1.` that starts a line, or to the end of the input. */
async function resync(r: ByteReader): Promise<void> {
  const needle = Buffer.from('\nWARC/1.');
  for (;;) {
    const at = await r.indexOf(needle, WINDOW);
    if (at >= 0) {
      await r.skip(at + 1);
      return;
    }
    const have = Math.min(r.buffered, WINDOW);
    if (have <= needle.length) {
      await r.skip(have);
      return;
    }
    await r.skip(have - needle.length);
  }
}

/** `Name: value` lines; a line starting with space or tab continues the previous value (RFC 822 folding). */
export function parseHeaderLines(lines: readonly string[]): Map<string, string> {
  const headers = new Map<string, string>();
  let last: string | null = null;
  for (const line of lines) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== null) {
      headers.set(last, `${headers.get(last) ?? ''} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (headers.has(name)) {
      last = null;
      continue;
    }
    headers.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return headers;
}
