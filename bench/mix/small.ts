// The small-document mix bench corpus: ~600-byte documents with four attribute sets, and its six-rule recipe with two span replacements.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rng } from '../../workers/engine/testing.js';
import type { CorpusInfo } from './corpus.js';

const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she ' +
  'there been one all we their has would when if so no will more can out other into its only time some could them these two may ' +
  'corpus document token filter quality language model dataset training river mountain library history science music garden'
).split(' ');

const G = 'gopher_rules__gopher_v1__';
const PII = 'pii_detection__pii_regex_with_counts_fast_v2__';
const LANG = 'ft_lang_id_en_doc_v2__';

/** ~`targetMB` of uncompressed ~600-byte documents in `nFiles` gzip files, each with gopher, language, PII and paragraph-dedupe attributes. */
export function generateSmallCorpus(root: string, targetMB: number, nFiles: number, seed = 7): CorpusInfo {
  const rand = rng(seed);
  const pick = (): string => WORDS[Math.floor(rand() * WORDS.length)] as string;
  const r5 = (v: number): number => Math.round(v * 1e5) / 1e5;
  const perFile = (targetMB * 1e6) / nFiles;
  const files: string[] = [];
  let docs = 0;
  let bytes = 0;
  for (let f = 0; f < nFiles; f++) {
    const name = `small-${String(f).padStart(3, '0')}.jsonl.gz`;
    const sets: Record<string, string[]> = { documents: [], 'attributes/gopher_rules': [], 'attributes/ft_lang_id': [], 'attributes/pii_detection': [], 'attributes/dedupe_paragraphs': [] };
    const add = (set: string, line: unknown): number => (sets[set] as string[]).push(JSON.stringify(line));
    let size = 0;
    while (size < perFile) {
      const id = `s${f}-${sets.documents!.length}`;
      const paragraphs: string[] = [];
      const nPara = 2 + Math.floor(rand() * 3);
      for (let p = 0; p < nPara; p++) {
        const words: string[] = [];
        const nWords = 16 + Math.floor(rand() * 24);
        for (let w = 0; w < nWords; w++) words.push(pick());
        if (rand() < 0.2) words.splice(3, 0, `user${Math.floor(rand() * 1e4)}@example.com`);
        paragraphs.push(words.join(' ') + '.');
      }
      const text = paragraphs.join('\n');
      const len = text.length;
      const doc = { id, text, source: 'bench-small', added: '2026-01-01T00:00:00Z', created: '2025-06-01T00:00:00Z', metadata: { url: `https://example.com/${id}`, lang: 'en' } };
      const line = JSON.stringify(doc);
      sets.documents!.push(line);
      size += Buffer.byteLength(line) + 1;
      const words = text.split(/\s+/).length;
      const whole = (v: number): number[][] => [[0, len, v]];
      add('attributes/gopher_rules', { id, attributes: {
        [`${G}word_count`]: whole(words), [`${G}median_word_length`]: whole(r5(3 + rand() * 5)),
        [`${G}symbol_to_word_ratio`]: whole(r5(rand() * 0.12)), [`${G}fraction_of_duplicate_lines`]: whole(r5(rand() * 0.2)),
      }, source: 'bench-small' });
      const en = r5(rand() < 0.1 ? rand() * 0.5 : 0.5 + rand() * 0.5);
      add('attributes/ft_lang_id', { id, attributes: { [`${LANG}en`]: whole(en), [`${LANG}not_en`]: whole(r5(1 - en)) }, source: 'bench-small' });
      // E-mail spans point at the real addresses, so replacement does real work.
      const emails = [...text.matchAll(/user\d+@example\.com/g)].map((m) => [m.index, m.index + m[0].length, 1]);
      add('attributes/pii_detection', { id, attributes: { [`${PII}EMAIL_ADDRESS`]: emails, [`${PII}doc_count`]: whole(emails.length) }, source: 'bench-small' });
      const paraSpans: number[][] = [];
      let off = 0;
      for (const p of paragraphs) {
        if (rand() < 0.08) paraSpans.push([off, off + p.length + 1, 1]);
        off += p.length + 1;
      }
      add('attributes/dedupe_paragraphs', { id, attributes: { bff_duplicate_paragraph_spans: paraSpans, bff_duplicate_docs: rand() < 0.03 ? whole(1) : [] } });
    }
    for (const [sub, lines] of Object.entries(sets)) {
      mkdirSync(join(root, sub), { recursive: true });
      writeFileSync(join(root, sub, name), gzipSync(Buffer.from(lines.join('\n') + '\n'), { level: 1 }));
    }
    files.push(join(root, 'documents', name));
    docs += sets.documents!.length;
    bytes += size;
  }
  return { root, files, docs, bytes };
}

/** Six exclude rules (guarded span scores, Dolma style) and two span replacements over the four attribute sets. */
export function smallRecipe(root: string, out: string, processes: number): string {
  const rule = (key: string, op: string, v: number): string => `"$.attributes[?(@.${key} && @.${key}[0] && @.${key}[0][2] ${op} ${v})]"`;
  const excludes = [
    rule(`${G}word_count`, '<', 25), rule(`${G}median_word_length`, '>', 7.5), rule(`${G}symbol_to_word_ratio`, '>', 0.1),
    rule(`${LANG}en`, '<', 0.5), rule(`${PII}doc_count`, '>', 3), rule('bff_duplicate_docs', '>=', 1),
  ];
  return `# bench/mix small-document recipe: 6 exclude rules + 2 span replacements
streams:
  - name: small
    documents:
      - ${root}/documents/*.jsonl.gz
    attributes: [gopher_rules, ft_lang_id, pii_detection, dedupe_paragraphs]
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
      - span: $.attributes.${PII}EMAIL_ADDRESS
        min_score: 0.5
        replacement: ' |||EMAIL_ADDRESS||| '
processes: ${processes}
`;
}

/** The small corpus under `root`, generated on first use and reused while its size parameters match. */
export function ensureSmallCorpus(root: string, sizeMB: number, files: number): CorpusInfo {
  const marker = join(root, `small-${sizeMB}mb-${files}f.json`);
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as CorpusInfo;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  process.stderr.write(`generating ~${sizeMB} MB small-document corpus in ${files} files under ${root} …\n`);
  const info = generateSmallCorpus(join(root, 'data'), sizeMB, files);
  writeFileSync(marker, JSON.stringify(info));
  return info;
}
