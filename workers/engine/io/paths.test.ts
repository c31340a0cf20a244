// Dolma path mapping: documents → attributes, unshuffled mixer outputs, shard names.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../testing.js';
import { attributePathFor, extForCodec, mixerUnshuffledOutputPath, shardName } from './paths.js';

describe('attributePathFor', () => {
  it('maps the conformance mixer documents onto their attribute files', () => {
    const doc = join(CONFORMANCE, 'dolma/mixer/documents/000.json.gz');
    for (const name of ['pii', 'toxicity']) {
      const attr = attributePathFor(doc, name);
      expect(attr).toBe(join(CONFORMANCE, `dolma/mixer/attributes/${name}/000.json.gz`));
      expect(existsSync(attr)).toBe(true);
    }
  });

  it('replaces every /documents/ and keeps the sub-tree and file name', () => {
    expect(attributePathFor('/d/documents/cc/2019/documents/part-1.jsonl.zst', 'exp')).toBe('/d/attributes/exp/cc/2019/attributes/exp/part-1.jsonl.zst');
    expect(attributePathFor('/data/documents/documents/x.gz', 'a')).toBe('/data/attributes/a/documents/x.gz');
  });

  it('works on a relative path starting with documents/ (resolved against the cwd first)', () => {
    expect(attributePathFor('documents/x.jsonl.gz', 'tox')).toBe(resolve('attributes/tox/x.jsonl.gz'));
  });

  it('a path without a documents directory is CONFIG naming the path', () => {
    for (const p of ['/data/docs/x.gz', '/data/mydocuments/x.gz', '/data/documents']) {
      expect(() => attributePathFor(p, 'a')).toThrow(expect.objectContaining({ code: 'CONFIG', file: p }));
    }
  });
});

describe('mixer output names', () => {
  it('unshuffled: output/documents/<part after the last /documents/>', () => {
    expect(mixerUnshuffledOutputPath('/out', '/in/documents/cc/documents/sub/a.jsonl.gz')).toBe('/out/documents/sub/a.jsonl.gz');
    expect(mixerUnshuffledOutputPath('/out/', '/in/documents/a.json.zst')).toBe('/out/documents/a.json.zst');
    expect(() => mixerUnshuffledOutputPath('/out', '/in/x/a.gz')).toThrow(expect.objectContaining({ code: 'CONFIG' }));
  });

  it('shards: .jsonl for shards closed early, .json for the final one, 4-digit counter', () => {
    expect(shardName('/out', 'mixer-test', 0, true, extForCodec('gzip'))).toBe('/out/mixer-test-0000.json.gz');
    expect(shardName('/out', 's', 7, false, extForCodec('zstd'))).toBe('/out/s-0007.jsonl.zst');
    expect(shardName('out', 's', 12345, true, extForCodec('plain'))).toBe('out/s-12345.json');
  });
});
