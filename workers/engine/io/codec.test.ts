// Codec inference (Dolma's table plus `.zstd`), config names, magic sniffing, the format fixtures.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../testing.js';
import { chooseReadCodec, extForCodec, inferCodec, parseCodecName, sniffCodec } from './codec.js';
import { readJsonRecords } from './json.js';

const FORMATS = join(CONFORMANCE, 'dolma/formats');

describe('inferCodec', () => {
  it("matches Dolma's inference table (conformance README, formats)", () => {
    const table: [string, string][] = [
      ['test.jsonl.gz', 'gzip'],
      ['test.jsonl.zst', 'zstd'],
      ['test.jsonl', 'plain'],
      ['test.jsonl.gz.tmp', 'gzip'],
      ['test', 'plain'],
      ['test.tmp', 'plain'],
      ['test.', 'plain'],
      ['test.gz', 'gzip'],
    ];
    for (const [name, codec] of table) expect([name, inferCodec(name)]).toEqual([name, codec]);
  });

  it('reads `.zstd` as zstd (Python side), looks only at the file name, and a bare dot-name has no extension', () => {
    expect(inferCodec('a/b/part-0.jsonl.zstd')).toBe('zstd');
    expect(inferCodec('a/b/part-0.jsonl.zst.tmp')).toBe('zstd');
    expect(inferCodec('/data/x.gz/part.jsonl')).toBe('plain');
    expect(inferCodec('/data/.gz')).toBe('plain');
    expect(inferCodec('/data/file.bz2')).toBe('plain');
  });
});

describe('parseCodecName', () => {
  it('accepts the config spellings', () => {
    const names: [string, string][] = [
      ['gz', 'gzip'],
      ['gzip', 'gzip'],
      ['zst', 'zstd'],
      ['zstd', 'zstd'],
      ['', 'plain'],
      ['plain', 'plain'],
      ['jsonl', 'plain'],
      ['none', 'plain'],
    ];
    for (const [name, codec] of names) expect(parseCodecName(name)).toBe(codec);
  });
  it('rejects anything else as CONFIG, naming the field', () => {
    expect(() => parseCodecName('bz2', 'compression.input')).toThrow(expect.objectContaining({ code: 'CONFIG', field: 'compression.input' }));
  });
});

describe('magic bytes', () => {
  it('sniffs gzip and zstd, and trusts them over the extension unless overridden', () => {
    const gz = Uint8Array.from([0x1f, 0x8b, 8, 0]);
    const zs = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd]);
    const text = Buffer.from('{"a"');
    expect([sniffCodec(gz), sniffCodec(zs), sniffCodec(text)]).toEqual(['gzip', 'zstd', undefined]);
    expect(chooseReadCodec('x.jsonl', gz)).toBe('gzip');
    expect(chooseReadCodec('x.jsonl.gz', zs)).toBe('zstd');
    expect(chooseReadCodec('x.jsonl.gz', gz, 'plain')).toBe('plain');
    // No magic: the extension stands, so a damaged .gz header is reported rather than read as text.
    expect(chooseReadCodec('x.jsonl.gz', text)).toBe('gzip');
  });
  it('extForCodec gives the mixer output extensions', () => {
    expect([extForCodec('gzip'), extForCodec('zstd'), extForCodec('plain')]).toEqual(['.gz', '.zst', '']);
  });
});

describe('format fixtures', () => {
  it('test.jsonl, .gz and .zst all decode to the single record {"message": "this is a test"}', async () => {
    for (const name of ['test.jsonl', 'test.jsonl.gz', 'test.jsonl.zst']) {
      const records = [];
      for await (const batch of readJsonRecords(join(FORMATS, name))) records.push(...batch);
      expect([name, records.map((r) => r.value)]).toEqual([name, [{ message: 'this is a test' }]]);
      expect(records[0]?.line).toBe(1);
    }
  });
});
