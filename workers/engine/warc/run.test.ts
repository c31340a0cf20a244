// runWarc as the app calls it: language id with a minimum score, and cancellation that leaves no output behind.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAssayError } from '../errors.js';
import { scratchDir } from '../testing.js';
import { runWarc } from './index.js';
import { httpBlock, perRecordGzip, readWarcFile, warcRecord } from './testing.js';

const page = (url: string, text: string): Buffer => warcRecord('response', url, httpBlock(200, { 'Content-Type': 'text/html' }, `<html><body><p>${text}</p></body></html>`));

describe('runWarc', () => {
  it('language id: --languages keeps only those (counted as other language), and labels what it keeps', async () => {
    const dir = scratchDir();
    const file = join(dir, 'lang.warc.gz');
    writeFileSync(file, perRecordGzip([
      page('http://example.com/en', 'The people of the town walked along the river to the market every morning before work.'),
      page('http://example.fr/fr', 'Les habitants de la ville marchaient le long de la rivière jusqu’au marché chaque matin.'),
    ]));
    const r = await readWarcFile(file, dir, { languages: ['en'] });
    expect(r.counts).toMatchObject({ kept: 1, wrongLanguage: 1 });
    const m = r.docs[0]?.metadata as { url: string; language: string; language_score: number };
    expect(m.url).toBe('http://example.com/en');
    expect(m.language).toBe('en');
    expect(m.language_score).toBeGreaterThan(0.65);
    const all = await readWarcFile(file, dir, { languageId: true });
    expect(all.docs.map((d) => (d.metadata as { language: string }).language)).toEqual(['en', 'fr']);
  });

  it('cancelled mid-file: rejects with CANCELLED, and neither the output nor its .tmp is left', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'many.warc.gz'), perRecordGzip(Array.from({ length: 300 }, (_, i) => page(`http://example.com/${i}`, `Page ${i} about the river.`))));
    const controller = new AbortController();
    const run = runWarc({ documents: ['many.warc.gz'], destination: 'out', cwd: dir, signal: controller.signal, onProgress: (p) => p.docs > 0 && controller.abort() });
    await expect(run).rejects.toSatisfy((e) => isAssayError(e) && e.code === 'CANCELLED');
    const docsDir = join(dir, 'out/documents');
    expect(existsSync(docsDir) ? readdirSync(docsDir).filter((f) => f.includes('jsonl')) : []).toEqual([]);
  });
});
