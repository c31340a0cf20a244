// Test fixture: a small dataset with decon attributes written by hand in the engine's format, and its eval items file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const FIXTURE_NAME = 'decon';

export const EVAL_TEXTS: Record<string, Record<string, string>> = {
  mmlu: {
    q1: 'which planet in the solar system has the largest number of known moons orbiting it today',
    q2: 'what is the capital city of the country that hosted the first modern olympic games',
    q3: 'which element has the chemical symbol fe',
    q4: 'who wrote the novel pride and prejudice',
  },
  gsm8k: {
    '7': 'janet has three apples and buys five more at the market then gives two to her brother how many remain',
    '8': 'a train travels sixty miles in one hour',
  },
};

/** Per document: source, text and the eval items it contains (their texts are planted in it). */
export const FIXTURE_DOCS: { file: string; id: string; source: string; hits: string[] }[] = [
  { file: 'web.jsonl', id: 'w1', source: 'web', hits: ['mmlu:q1'] },
  { file: 'web.jsonl', id: 'w2', source: 'web', hits: [] },
  { file: 'web.jsonl', id: 'w3', source: 'web', hits: ['gsm8k:7', 'mmlu:q1'] },
  { file: 'web.jsonl', id: 'w4', source: 'web', hits: [] },
  { file: 'books.jsonl.gz', id: 'b1', source: 'books', hits: ['mmlu:q2'] },
  { file: 'books.jsonl.gz', id: 'b2', source: 'books', hits: [] },
];

const textOf = (ref: string): string => {
  const [set, id] = ref.split(':') as [string, string];
  return EVAL_TEXTS[set]![id]!;
};

/** The document's text: a filler sentence, then each hit item's text, each followed by more filler. */
export function fixtureText(d: (typeof FIXTURE_DOCS)[number]): string {
  return [`Document ${d.id} from the ${d.source} crawl starts with some ordinary prose.`, ...d.hits.map((h) => `${textOf(h)}. And then the page moves on.`)].join(' ');
}

/** Writes `<root>/documents/{web.jsonl,books.jsonl.gz}`, `<root>/attributes/decon/…` and, unless `items` is false, the eval items file. */
export function writeDeconFixture(root: string, opts: { items?: boolean } = {}): void {
  const files = new Map<string, { docs: string[]; attrs: string[] }>();
  for (const d of FIXTURE_DOCS) {
    const f = files.get(d.file) ?? files.set(d.file, { docs: [], attrs: [] }).get(d.file)!;
    const text = fixtureText(d);
    const spans = d.hits.map((h) => {
      const start = text.indexOf(textOf(h));
      return [start, start + textOf(h).length, 1];
    });
    const ngrams = d.hits.reduce((n, h) => n + textOf(h).split(' ').length - 12, 0);
    f.docs.push(JSON.stringify({ id: d.id, text, source: d.source, added: '2024-01-01', created: '2024-01-01' }));
    const attrs = {
      [`${FIXTURE_NAME}__decon__overlap`]: spans,
      [`${FIXTURE_NAME}__decon__ngrams`]: [[0, text.length, ngrams]],
      [`${FIXTURE_NAME}__decon__items`]: [[0, text.length, d.hits.length]],
      [`${FIXTURE_NAME}__decon__hits`]: [...d.hits].sort(),
    };
    f.attrs.push(JSON.stringify({ id: d.id, attributes: attrs }));
  }
  for (const [file, { docs, attrs }] of files) {
    const put = (dir: string, lines: string[]): void => {
      mkdirSync(dir, { recursive: true });
      const body = Buffer.from(lines.join('\n') + '\n');
      writeFileSync(join(dir, file), file.endsWith('.gz') ? gzipSync(body) : body);
    };
    put(join(root, 'documents'), docs);
    put(join(root, 'attributes', FIXTURE_NAME), attrs);
  }
  if (opts.items === false) return;
  const sets = Object.fromEntries(Object.entries(EVAL_TEXTS).map(([s, items]) => [s, { count: Object.keys(items).length, items }]));
  mkdirSync(join(root, 'attributes', FIXTURE_NAME, '.assay'), { recursive: true });
  writeFileSync(join(root, 'attributes', FIXTURE_NAME, '.assay', 'decon-items.json'), JSON.stringify({ schema: 'assay.decon-items', version: 1, sets }));
}
