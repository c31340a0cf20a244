// A file's documents tagged in groups, tagger by tagger (file.ts): each tagger's rows as alone, its calls in document order, views shared within a group, errors at their line.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssayError } from '../errors.js';
import { readJsonlFile, scratchDir, writeJsonl } from '../testing.js';
import { GROUP_CHARS, GROUP_DOCS, tagFile, type FileTask } from './file.js';
import { runTag } from './runtime.js';
import type { TaggerSpec, TagSpan } from './types.js';
import { viewOf } from './view.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = ['the', 'river', 'runs', 'over', 'stones', 'and', 'Ünïcödé', 'lorem ipsum', 'javascript', '{', 'privacy policy', 'é', '😀', '[1]', 'Dr.', 'buy', 'now'];

/** Prose-like documents: repeated lines and words, line endings of every kind, now and then a long one. */
function documents(n: number, seed: number): { id: string; text: string }[] {
  const next = random(seed);
  const line = (): string => Array.from({ length: 1 + Math.floor(next() * 14) }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ') + (next() < 0.7 ? '.' : '');
  return Array.from({ length: n }, (_, i) => {
    const lines = Array.from({ length: 1 + Math.floor(next() * 12) }, line);
    if (next() < 0.3) lines.push(lines[0] as string, lines[0] as string);
    // Every 97th document is long enough that a group ends on its characters before its count.
    const text = i % 97 === 50 ? lines.join('\n').repeat(Math.ceil(300_000 / lines.join('\n').length)) : lines.join(next() < 0.2 ? '\r\n' : '\n');
    return { id: `d${i}`, text };
  });
}

describe('tagging a file in groups, tagger by tagger', () => {
  it("gives every tagger of a pass the rows it gives alone, over groups, batches and bad lines", { timeout: 120_000 }, async () => {
    const rows: unknown[] = documents(700, 3);
    rows.splice(130, 0, '{"id": "broken"');
    rows.splice(400, 0, '{"text": "no id"}');
    const taggers = ['gopher_repetition', 'gopher_quality', 'c4_quality', 'fineweb_quality', 'language_filter'];
    const run = async (names: string[]): Promise<Record<string, unknown>[]> => {
      const dir = scratchDir();
      writeJsonl(join(dir, 'documents/a.jsonl.gz'), rows);
      await runTag({ documents: ['documents/a.jsonl.gz'], taggers: names, experiment: 'x', cwd: dir, skipBadLines: true });
      return readJsonlFile(join(dir, 'attributes/x/a.jsonl.gz'));
    };
    const pass = await run(taggers);
    expect(pass).toHaveLength(702);
    for (const t of taggers) {
      const alone = await run([t]);
      const mine = (r: Record<string, unknown>): unknown => Object.entries((r.attributes ?? {}) as object).filter(([k]) => k.startsWith(`x__${t}__`));
      expect(pass.map(mine), t).toEqual(alone.map(mine));
      expect(alone.map(mine).flat().length, t).toBeGreaterThan(0);
    }
  });

  /** A tagger that records its calls, and the view object the first tagger left on each document. */
  function recorder(name: string, calls: string[], probes: Map<string, object>): TaggerSpec {
    return {
      name,
      description: 'records its calls',
      outputs: [{ type: 'n', description: 'the number of the call', range: '≥ 1', level: 'spans' }],
      create: () => ({
        tag: (doc): TagSpan[] => {
          calls.push(`${name}:${doc.id}`);
          const probe = viewOf(doc.text).get('groups-test', () => ({ by: name }));
          if (name === 'b' && probes.get(doc.id) !== probe) throw new Error(`b did not get a's view of ${doc.id}`);
          probes.set(doc.id, probe);
          if (doc.id === 'd300') throw new Error('this document is refused');
          return [{ start: 0, end: 1, type: 'n', score: calls.length }];
        },
      }),
    };
  }

  it('runs each tagger over a group in document order, then the next; a group ends at GROUP_DOCS documents or GROUP_CHARS characters', async () => {
    const dir = scratchDir();
    const docs = documents(299, 5);
    writeJsonl(join(dir, 'in.jsonl.gz'), docs);
    const calls: string[] = [];
    const probes = new Map<string, object>();
    const task: FileTask = {
      input: join(dir, 'in.jsonl.gz'),
      outputs: [{ name: 'x', path: join(dir, 'out.jsonl.gz'), taggers: ['a', 'b'].map((n) => ({ spec: recorder(n, calls, probes), options: {}, prefix: `x__${n}` })) }],
      seed: 1,
      cwd: dir,
    };
    const result = await tagFile(task);
    expect(result.docs).toBe(299);
    // The groups as file.ts cuts them: within each batch of 256 lines, GROUP_DOCS documents or until GROUP_CHARS characters of JSON lines.
    const groups: number[][] = [];
    for (let b = 0; b < docs.length; b += 256) {
      for (let g = b, end = Math.min(docs.length, b + 256); g < end; ) {
        const group: number[] = [];
        let chars = 0;
        while (g < end && group.length < GROUP_DOCS && chars < GROUP_CHARS) {
          chars += JSON.stringify(docs[g]).length;
          group.push(g++);
        }
        groups.push(group);
      }
    }
    // Some group ended on its characters (a long document), not on its count or its batch's end.
    expect(groups.some((g) => g.length < GROUP_DOCS && g.at(-1) !== 255 && g.at(-1) !== 298)).toBe(true);
    expect(GROUP_DOCS).toBeGreaterThan(1);
    expect(calls).toEqual(groups.flatMap((g) => ['a', 'b'].flatMap((n) => g.map((i) => `${n}:d${i}`))));
    const out = readJsonlFile(join(dir, 'out.jsonl.gz'));
    expect(out.map((r) => r.id)).toEqual(docs.map((d) => d.id));
    // Each document's score is the number of a's call on it, then of b's: the rows follow the documents, not the calls.
    expect(out.map((r) => (r.attributes as Record<string, number[][]>)['x__a__n']![0]![2])).toEqual(docs.map((_, i) => calls.indexOf(`a:d${i}`) + 1));
  });

  it('names the file and line of the document a tagger failed on, inside a group', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'in.jsonl.gz'), documents(400, 7));
    const spec = recorder('a', [], new Map());
    const task: FileTask = { input: join(dir, 'in.jsonl.gz'), outputs: [{ name: 'x', path: join(dir, 'out.jsonl.gz'), taggers: [{ spec, options: {}, prefix: 'x__a' }] }], seed: 1, cwd: dir };
    await expect(tagFile(task)).rejects.toMatchObject({ line: 301, file: task.input, message: expect.stringContaining("tagger 'a' failed on document \"d300\": this document is refused") } satisfies Partial<AssayError> & { message: unknown });
  });
});
