// Generate the mix bench corpus: Dolma-layout documents plus three attribute sets, deterministic from a seed.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rng } from '../../workers/engine/testing.js';

const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she ' +
  'there been one all we their has would when if so no will more can out other into its only time some could them these two may ' +
  'then first any like now my such make over our even most me state after also made many did must before back see through way ' +
  'where get much go well your know should down work year because come people just say each those take day good how long little ' +
  'corpus document token filter quality language model dataset training curation duplicate paragraph sentence river mountain ' +
  'library history science music garden kitchen market winter summer engine bridge harbor island forest village museum'
).split(' ');

export const GOPHER_KEYS = [
  'word_count', 'median_word_length', 'symbol_to_word_ratio', 'fraction_of_words_with_alpha_character', 'required_word_count',
  'fraction_of_lines_starting_with_bullet_point', 'fraction_of_lines_ending_with_ellipsis', 'fraction_of_duplicate_lines',
  'fraction_of_characters_in_duplicate_lines', 'fraction_of_characters_in_most_common_2grams',
  'fraction_of_characters_in_most_common_3grams', 'fraction_of_characters_in_duplicate_5grams',
  'fraction_of_characters_in_duplicate_6grams', 'fraction_of_characters_in_duplicate_10grams',
] as const;

export interface CorpusInfo {
  root: string;
  files: string[];
  docs: number;
  bytes: number;
}

/** ~`targetMB` of uncompressed document JSONL in `nFiles` gzip files, with gopher, PII and paragraph-dedupe attributes. */
export function generateCorpus(root: string, targetMB: number, nFiles: number, seed = 42): CorpusInfo {
  const rand = rng(seed);
  const pick = (): string => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const perFile = (targetMB * 1e6) / nFiles;
  const files: string[] = [];
  let docs = 0;
  let bytes = 0;
  for (let f = 0; f < nFiles; f++) {
    const name = `part-${String(f).padStart(3, '0')}.jsonl.gz`;
    const d: string[] = [];
    const gopher: string[] = [];
    const pii: string[] = [];
    const dup: string[] = [];
    let size = 0;
    while (size < perFile) {
      const id = `doc-${f}-${d.length}`;
      const paragraphs: string[] = [];
      const nPara = 4 + Math.floor(rand() * 8);
      for (let p = 0; p < nPara; p++) {
        const words: string[] = [];
        const nWords = 30 + Math.floor(rand() * 70);
        for (let w = 0; w < nWords; w++) words.push(pick());
        if (rand() < 0.15) words.splice(5, 0, `user${Math.floor(rand() * 1e4)}@example.com`);
        if (rand() < 0.05) words.splice(9, 0, `555-${Math.floor(rand() * 9000 + 1000)}`);
        paragraphs.push(words.join(' ') + '.');
      }
      const text = paragraphs.join('\n');
      const doc = { id, text, source: 'bench', added: '2026-01-01T00:00:00Z', created: '2025-06-01T00:00:00Z', metadata: { url: `https://example.com/${id}`, lang: 'en', length: text.length } };
      const line = JSON.stringify(doc);
      d.push(line);
      size += Buffer.byteLength(line) + 1;
      const len = text.length;
      const words = text.split(/\s+/).length;
      const attrs: Record<string, number[][]> = {};
      for (const k of GOPHER_KEYS) {
        const v = k === 'word_count' ? words : k === 'median_word_length' ? 3 + rand() * 4 : k === 'required_word_count' ? Math.floor(rand() * 6) : rand() * 0.35;
        attrs[`gopher_rules__gopher_v1__${k}`] = [[0, len, Math.round(v * 1e5) / 1e5]];
      }
      gopher.push(JSON.stringify({ id, attributes: attrs, source: 'bench' }));
      // PII spans point at the real e-mail and phone positions, so replacement does real work.
      const emails: number[][] = [];
      const phones: number[][] = [];
      for (const m of text.matchAll(/user\d+@example\.com/g)) emails.push([m.index, m.index + m[0].length, 1]);
      for (const m of text.matchAll(/555-\d{4}/g)) phones.push([m.index, m.index + m[0].length, 0.9]);
      pii.push(JSON.stringify({ id, attributes: {
        pii_detection__pii_regex_with_counts_fast_v2__EMAIL_ADDRESS: emails,
        pii_detection__pii_regex_with_counts_fast_v2__PHONE_NUMBER: phones,
        pii_detection__pii_regex_with_counts_fast_v2__doc_count: [[0, len, emails.length + phones.length]],
      }, source: 'bench' }));
      const paraSpans: number[][] = [];
      let off = 0;
      for (const p of paragraphs) {
        if (rand() < 0.1) paraSpans.push([off, off + p.length + 1, 1]);
        off += p.length + 1;
      }
      dup.push(JSON.stringify({ attributes: { bff_duplicate_paragraph_spans: paraSpans, bff_duplicate_docs: rand() < 0.03 ? [[0, len, 1]] : [] }, id }));
    }
    const write = (sub: string, lines: string[]): void => {
      const dir = join(root, sub);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, name), gzipSync(Buffer.from(lines.join('\n') + '\n'), { level: 1 }));
    };
    write('documents', d);
    write('attributes/gopher_rules', gopher);
    write('attributes/pii_detection', pii);
    write('attributes/dedupe_paragraphs', dup);
    files.push(join(root, 'documents', name));
    docs += d.length;
    bytes += size;
  }
  return { root, files, docs, bytes };
}

/** The 20-rule recipe in the style of Dolma's c4.yaml: 16 guarded span-score excludes + 4 span replacements. */
export function benchRecipe(root: string, out: string, processes: number): string {
  const g = (k: string, op: string, v: number): string =>
    `"$.attributes[?(@.gopher_rules__gopher_v1__${k} && @.gopher_rules__gopher_v1__${k}[0] && @.gopher_rules__gopher_v1__${k}[0][2] ${op} ${v})]"`;
  const excludes = [
    g('word_count', '<', 50), g('word_count', '>', 100000), g('median_word_length', '<', 3), g('median_word_length', '>', 10),
    g('symbol_to_word_ratio', '>', 0.34), g('fraction_of_words_with_alpha_character', '<', 0.01), g('required_word_count', '<', 1),
    g('fraction_of_lines_starting_with_bullet_point', '>', 0.34), g('fraction_of_lines_ending_with_ellipsis', '>', 0.34),
    g('fraction_of_duplicate_lines', '>', 0.345), g('fraction_of_characters_in_duplicate_lines', '>', 0.345),
    g('fraction_of_characters_in_most_common_2grams', '>', 0.349), g('fraction_of_characters_in_most_common_3grams', '>', 0.349),
    g('fraction_of_characters_in_duplicate_5grams', '>', 0.3495),
    `"$.attributes[?(@.pii_detection__pii_regex_with_counts_fast_v2__doc_count && @.pii_detection__pii_regex_with_counts_fast_v2__doc_count[0] && @.pii_detection__pii_regex_with_counts_fast_v2__doc_count[0][2] > 5)]"`,
    `"$@.attributes[?(@.bff_duplicate_docs && @.bff_duplicate_docs[0] && @.bff_duplicate_docs[0][2] >= 1.0)]"`,
  ];
  return `# bench/mix recipe: 16 exclude rules + 4 span replacements (20 rules), Dolma c4.yaml style
streams:
  - name: bench
    documents:
      - ${root}/documents/*.jsonl.gz
    attributes: [gopher_rules, pii_detection, dedupe_paragraphs]
    output:
      path: ${out}
      max_size_in_bytes: 8000000
    filter:
      exclude:
${excludes.map((e) => `        - ${e}`).join('\n')}
    span_replacement:
      - span: $.attributes.bff_duplicate_paragraph_spans
        min_score: 0.5
        replacement: ''
      - span: $.attributes.pii_detection__pii_regex_with_counts_fast_v2__EMAIL_ADDRESS
        min_score: 0.5
        replacement: ' |||EMAIL_ADDRESS||| '
      - span: $.attributes.pii_detection__pii_regex_with_counts_fast_v2__PHONE_NUMBER
        min_score: 0.5
        replacement: ' |||PHONE_NUMBER||| '
      - span: $.attributes.pii_detection__pii_regex_with_counts_fast_v2__IP_ADDRESS
        min_score: 0.5
        replacement: ' |||IP_ADDRESS||| '
processes: ${processes}
`;
}

/** The corpus under `root`, generated on first use and reused while its size parameters match. */
export function ensureCorpus(root: string, sizeMB: number, files: number): CorpusInfo {
  const marker = join(root, `corpus-${sizeMB}mb-${files}f.json`);
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as CorpusInfo;
  // Several benches share this corpus and may start together: one generates it, the others wait for it.
  return withLock(`${root}.lock`, () => {
    if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as CorpusInfo;
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    process.stderr.write(`generating ~${sizeMB} MB corpus in ${files} files under ${root} …\n`);
    const info = generateCorpus(join(root, 'data'), sizeMB, files);
    writeFileSync(marker, JSON.stringify(info));
    return info;
  });
}

/** Runs `f` holding an exclusive lock file (holding our pid); a lock whose process is gone is taken over. */
function withLock<T>(lock: string, f: () => T): T {
  mkdirSync(dirname(lock), { recursive: true });
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      writeFileSync(lock, String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(lock, 'utf8') || NaN);
      if (Number.isInteger(pid) && !alive(pid)) rmSync(lock, { force: true });
      else Atomics.wait(sleeper, 0, 0, 200);
    }
  }
  try {
    return f();
  } finally {
    rmSync(lock, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
