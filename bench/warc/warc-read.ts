// Reads the bench's wget WARC back with assay warc's own reader (records → HTTP → HTML by type → charset), as the extractor sees pages.
import { openDecoded } from '../../workers/engine/io/source.js';
import { ByteReader } from '../../workers/engine/warc/bytes.js';
import { decodeHtml, isHtml } from '../../workers/engine/warc/charset.js';
import { parseHttpResponse } from '../../workers/engine/warc/http.js';
import { readWarcRecords } from '../../workers/engine/warc/records.js';

export interface WarcPages {
  records: number;
  responses: number;
  pages: { url: string; html: string }[];
}

const MAX_BYTES = 64 << 20;

export async function readWarcPages(file: string): Promise<WarcPages> {
  const source = await openDecoded(file);
  const out: WarcPages = { records: 0, responses: 0, pages: [] };
  if (source.stream === null) return out;
  const problems: string[] = [];
  const records = readWarcRecords(new ByteReader(source.stream), {
    maxBlockBytes: MAX_BYTES,
    onProblem: (kind, offset, message) => problems.push(`${kind} at byte ${offset}: ${message}`),
  });
  for await (const rec of records) {
    out.records++;
    if ((rec.headers.get('warc-type') ?? '').toLowerCase() !== 'response' || rec.block === null) continue;
    out.responses++;
    const http = parseHttpResponse(rec.block, MAX_BYTES);
    const type = http.headers.get('content-type');
    if (http.status !== 200 || !isHtml(type, http.body)) continue;
    out.pages.push({ url: (rec.headers.get('warc-target-uri') ?? '').replace(/^<|>$/g, ''), html: decodeHtml(http.body, type).text });
  }
  // The bench's WARC is wget's, written a moment ago from local files: any damage is a bug to see, not a page to skip.
  if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
  return out;
}
