// The saved index: a round trip matches as the built one does; damage and mismatched headers are refused, never reused.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { DeconIndex } from './index.js';
import { headerMismatch, loadIndex, saveIndex, type DeconHeader } from './index-file.js';
import { NORMALISATION } from './words.js';

const ITEM = 'the quick brown fox jumps over the lazy dog near the river bank today';
const header: DeconHeader = { n: 5, normalisation: NORMALISATION, sets: [{ name: 's', fields: ['q'], idField: null, sha256: 'abc' }] };

async function saved(): Promise<{ path: string; index: DeconIndex }> {
  const index = DeconIndex.build([{ config: { name: 's', path: 'x', fields: ['q'] }, sha256: 'abc', items: [{ id: '0', text: ITEM }, { id: '1', text: 'short one' }] }], 5);
  const path = join(scratchDir(), 'x.idx');
  await saveIndex(path, index, header);
  return { path, index };
}

describe('decon index file', () => {
  it('round-trips: the loaded index finds what the built one finds, with its header and items', async () => {
    const { path, index } = await saved();
    const loaded = await loadIndex(path);
    const doc = `Intro: ${ITEM.toUpperCase()}! and more words here`;
    expect(loaded.index.match(doc)).toEqual(index.match(doc));
    expect(loaded.index.match(doc).hits).toEqual(['s:0']);
    expect(loaded.header).toEqual(header);
    expect(loaded.index.sets).toEqual([{ name: 's', items: 2, shortItems: 1 }]);
    expect(loaded.index.items[1]).toEqual({ key: 's:1', text: 'short one' });
  });

  it('refuses a flipped byte, a truncated file and a foreign file', async () => {
    const { path } = await saved();
    const bytes = readFileSync(path);
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 3] = (flipped[bytes.length - 3] as number) ^ 1;
    writeFileSync(path, flipped);
    await expect(loadIndex(path)).rejects.toThrow(/checksum mismatch.*--rebuild/);
    writeFileSync(path, bytes.subarray(0, 40));
    await expect(loadIndex(path)).rejects.toThrow(/bad magic or truncated/);
    writeFileSync(path, 'not an index at all, just text padding it out past the header size');
    await expect(loadIndex(path)).rejects.toThrow(/not an Assay decontamination index/);
  });

  it('names why a saved header does not serve a config', () => {
    expect(headerMismatch(header, header)).toBeNull();
    expect(headerMismatch(header, { ...header, n: 13 })).toMatch(/holds 5-grams, the config asks for 13/);
    expect(headerMismatch(header, { ...header, normalisation: 'other' })).toMatch(/normalised with/);
    expect(headerMismatch(header, { ...header, sets: [{ ...header.sets[0]!, name: 't' }] })).toMatch(/holds eval sets \[s\], the config names \[t\]/);
    expect(headerMismatch(header, { ...header, sets: [{ ...header.sets[0]!, sha256: 'def' }] })).toMatch(/eval set 's' changed/);
    expect(headerMismatch(header, { ...header, sets: [{ ...header.sets[0]!, fields: ['q', 'a'] }] })).toMatch(/eval set 's' changed/);
  });
});
