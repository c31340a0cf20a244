// The app's index job on a workspace whose index counts tokens: new files are counted with the recorded tokenizer, and the summary says so.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex, PreviewEngine } from '../../engine/index/index.js';
import { scratchDir, writeJsonl } from '../../engine/testing.js';
import { NEOX_JSON } from '../../engine/tokenize/test-helpers.js';
import { buildIndexForJob } from './index-builder.js';

const docs = (name: string, n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => ({ id: `${name}-${i}`, text: `document ${i} of ${name}, with some words`, source: name }));

describe('the index job', () => {
  it('keeps exact token counts: a new file is counted with the tokenizer the index records', async () => {
    const root = scratchDir();
    writeJsonl(join(root, 'documents/a.jsonl.gz'), docs('a', 5));
    await buildIndex(root, { tokenizer: 'gpt2', search: false });
    writeJsonl(join(root, 'documents/b.jsonl.gz'), docs('b', 3));
    const progress: string[] = [];
    const r = await buildIndexForJob(root, { signal: new AbortController().signal, onProgress: (p) => progress.push(p.unit), log: () => undefined });
    expect(r.summary).toMatch(/; tokens: 3 documents counted with gpt2 in [\d.]+ s/);
    expect(progress).toContain('docs');
    const e = PreviewEngine.open(root);
    try {
      expect(e.sources().map((s) => [s.source, s.tokensExact])).toEqual([['a', true], ['b', true]]);
    } finally {
      e.close();
    }
  });

  it('never reads a recorded tokenizer.json outside the workspace (the index came with the dataset): new files keep estimates, the log says why', async () => {
    const root = scratchDir();
    const outside = join(scratchDir(), 'tokenizer.json');
    copyFileSync(NEOX_JSON, outside);
    writeJsonl(join(root, 'documents/a.jsonl.gz'), docs('a', 5));
    await buildIndex(root, { tokenizer: outside, search: false });
    writeJsonl(join(root, 'documents/b.jsonl.gz'), docs('b', 3));
    const log: string[] = [];
    const r = await buildIndexForJob(root, { signal: new AbortController().signal, onProgress: () => undefined, log: (l) => log.push(l) });
    expect(r.summary).not.toMatch(/tokens:/);
    expect(log.join('\n')).toContain(`token counts: not updated (tokenizer: '${outside}' is outside the workspace)`);
    const e = PreviewEngine.open(root);
    try {
      expect(e.sources().map((s) => [s.source, s.tokensExact])).toEqual([['a', true], ['b', false]]);
    } finally {
      e.close();
    }
  });
});
