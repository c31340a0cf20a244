// Generate the preview bench dataset directly (no taggers): 10^6 short documents and ~20 attribute keys in 4 sets.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rng } from '../../workers/engine/testing.js';

const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she ' +
  'corpus document token filter quality language model dataset training curation duplicate paragraph sentence river mountain ' +
  'library history science music garden kitchen market winter summer engine bridge harbor island forest village museum'
).split(' ');

export const GOPHER = [
  'word_count', 'median_word_length', 'symbol_to_word_ratio', 'fraction_of_words_with_alpha_character', 'required_word_count',
  'fraction_of_lines_starting_with_bullet_point', 'fraction_of_lines_ending_with_ellipsis', 'fraction_of_duplicate_lines',
  'fraction_of_characters_in_duplicate_lines', 'fraction_of_characters_in_most_common_2grams', 'fraction_of_characters_in_duplicate_5grams',
] as const;
const SOURCES = ['cc', 'books', 'wiki', 'code'];

export interface Dataset {
  root: string;
  docs: number;
  files: number;
  /** Uncompressed bytes of documents and attributes. */
  bytes: number;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Writes (or reuses, when the marker matches) `docs` documents in `files` gzip files under `root`. */
export function ensureDataset(root: string, docs: number, files: number, seed = 11): Dataset {
  const marker = join(root, 'dataset.json');
  if (existsSync(marker)) {
    const old = JSON.parse(readFileSync(marker, 'utf8')) as Dataset & { seed: number; v: number };
    if (old.docs === docs && old.files === files && old.seed === seed && old.v === 2) return { root, docs, files, bytes: old.bytes };
  }
  rmSync(root, { recursive: true, force: true });
  const rand = rng(seed);
  let bytes = 0;
  const per = Math.ceil(docs / files);
  for (let f = 0; f < files; f++) {
    const name = `part-${String(f).padStart(3, '0')}.jsonl.gz`;
    const out: Record<string, string[]> = { documents: [], gopher: [], c4: [], pii: [], misc: [] };
    for (let i = 0; i < per && f * per + i < docs; i++) {
      const id = `d${f}-${i}`;
      const nWords = 20 + Math.floor(rand() * 100);
      const words: string[] = [];
      for (let w = 0; w < nWords; w++) words.push(WORDS[Math.floor(rand() * WORDS.length)] as string);
      const email = rand() < 0.1 ? Math.floor(rand() * nWords) : -1;
      if (email >= 0) words[email] = `user${i}@example.com`;
      const text = words.join(' ');
      const len = text.length;
      out.documents!.push(JSON.stringify({ id, text, source: SOURCES[Math.floor(rand() * SOURCES.length)], metadata: { length: len, lang: rand() < 0.9 ? 'en' : 'de' } }));
      const doc = (v: number): number[][] => [[0, len, r3(v)]];
      const g: Record<string, number[][]> = {};
      for (const k of GOPHER) {
        const frac = rand() * (rand() < 0.97 ? 0.3 : 1);
        g[`gopher__gopher_v1__${k}`] = doc(k === 'word_count' || k === 'required_word_count' ? nWords * rand() : k === 'median_word_length' ? 2 + rand() * 8 : k.includes('alpha') ? 1 - frac : frac);
      }
      out.gopher!.push(JSON.stringify({ id, attributes: g }));
      const c4: Record<string, number[][]> = { c4__c4_v2__line_count: doc(1 + Math.floor(rand() * 20)) };
      if (rand() < 0.03) c4.c4__c4_v2__has_curly_brace = doc(1);
      const spans: number[][] = [];
      for (let s = Math.floor(rand() * 3); s > 0; s--) spans.push([0, Math.min(len, 10 + Math.floor(rand() * 40)), 1]);
      c4.c4__c4_v2__lines_with_no_ending_punctuation = spans;
      out.c4!.push(JSON.stringify({ id, attributes: c4 }));
      const pii: Record<string, number[][]> = { pii__pii_regex_v2__doc: doc(email >= 0 ? 1 / nWords : 0) };
      if (email >= 0) {
        const start = words.slice(0, email).join(' ').length + (email > 0 ? 1 : 0);
        pii.pii__pii_regex_v2__EMAIL_ADDRESS = [[start, start + (words[email] as string).length, 1]];
      }
      out.pii!.push(JSON.stringify({ id, attributes: pii }));
      const misc: Record<string, number[][]> = {
        misc__random_number_v1__random: doc(rand()),
        misc__char_length_v1__length: doc(len),
        misc__whitespace_tokenizer_v1__length: doc(nWords + 1),
      };
      if (rand() < 0.05) misc.misc__dedupe__duplicate = doc(1);
      out.misc!.push(JSON.stringify({ id, attributes: misc }));
    }
    for (const [set, lines] of Object.entries(out)) {
      const dir = set === 'documents' ? join(root, 'documents') : join(root, 'attributes', set);
      mkdirSync(dir, { recursive: true });
      const text = lines.join('\n') + '\n';
      bytes += Buffer.byteLength(text);
      writeFileSync(join(dir, name), gzipSync(text, { level: 1 }));
    }
  }
  const info: Dataset = { root, docs, files, bytes };
  writeFileSync(marker, JSON.stringify({ ...info, seed, v: 2 }));
  return info;
}

/** The 20-rule recipe: 1 include, 16 guarded excludes, 2 span replacements, min_text_length. */
export function benchRecipe(thresholds: readonly number[]): string {
  const guarded = (k: string, op: string, t: number): string => `"$.attributes[?(@.${k} && @.${k}[0] && @.${k}[0][2] ${op} ${t})]"`;
  const keys: [string, string][] = [
    ...GOPHER.map((k) => [`gopher__gopher_v1__${k}`, k === 'word_count' || k === 'median_word_length' || k.includes('alpha') || k === 'required_word_count' ? '<' : '>'] as [string, string]),
    ['c4__c4_v2__line_count', '>'],
    ['c4__c4_v2__has_curly_brace', '>'],
    ['pii__pii_regex_v2__doc', '>'],
    ['misc__char_length_v1__length', '<'],
    ['misc__dedupe__duplicate', '>='],
  ];
  const excludes = keys.map(([k, op], i) => `        - ${guarded(k, op, thresholds[i] ?? 0.5)}`).join('\n');
  return `streams:
  - name: bench
    documents: [documents/*.jsonl.gz]
    attributes: [gopher, c4, pii, misc]
    output: {path: out/bench, min_text_length: 200}
    filter:
      include:
        - ${guarded('misc__random_number_v1__random', '<', 0.95)}
      exclude:
${excludes}
    span_replacement:
      - {span: $.attributes.pii__pii_regex_v2__EMAIL_ADDRESS, min_score: 0.5, replacement: " |||EMAIL_ADDRESS||| "}
      - {span: $.attributes.c4__c4_v2__lines_with_no_ending_punctuation, min_score: 0.5, max_score: 0.5, replacement: ""}
`;
}

/** Starting thresholds of the 16 excludes, in benchRecipe's order. */
export const THRESHOLDS = [3, 2.3, 0.29, 0.71, 2, 0.29, 0.29, 0.29, 0.29, 0.29, 0.29, 18, 0.5, 0.03, 150, 1];
