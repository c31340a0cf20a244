// The inspector's provenance rows: FineWeb's Parquet columns and WARC extraction's fields, in order, absent ones left out.
import { describe, expect, it } from 'vitest';
import { provenanceFields } from './provenance.js';

describe('provenanceFields', () => {
  it('FineWeb metadata: URL, dump, crawl date, file and language with its score', () => {
    const f = provenanceFields({ url: 'https://a.org/x', dump: 'CC-MAIN-2024-10', date: '2024-02-21T10:11:12Z', file_path: 's3://cc/w.warc.gz', language: 'en', language_score: 0.9312, token_count: 12 });
    expect(f.map((x) => [x.label, x.value])).toEqual([
      ['URL', 'https://a.org/x'],
      ['dump', 'CC-MAIN-2024-10'],
      ['crawled', '2024-02-21T10:11:12Z'],
      ['WARC file', 's3://cc/w.warc.gz'],
      ['language', 'en (0.93)'],
    ]);
    expect(f[0]?.url).toBe(true);
  });

  it('a WARC record: the record id, and warc_date before a plain date', () => {
    const f = provenanceFields({ url: 'http://127.0.0.1/p.html', warc_record_id: '<urn:uuid:1>', warc_date: '2026-01-01T00:00:00Z', date: 'other', warc_filename: 'a.warc.gz' });
    expect(f.map((x) => x.key)).toEqual(['url', 'warc_record_id', 'warc_date', 'warc_filename']);
  });

  it('nothing for documents without crawl metadata, empty strings and nested values', () => {
    expect(provenanceFields({})).toEqual([]);
    expect(provenanceFields(undefined)).toEqual([]);
    expect(provenanceFields({ url: '', dump: { a: 1 }, length: 4 })).toEqual([]);
  });
});
