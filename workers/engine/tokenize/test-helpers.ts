// Test helpers for the tokenize stage: varied texts, the GPT-NeoX fixture, and a reader for a run's outputs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CONFORMANCE, rng } from '../testing.js';

export const NEOX_JSON = join(CONFORMANCE, 'dolma/tokenizer/gpt-neo-test-tokenizer.json');
export const NEOX_REFERENCE = join(CONFORMANCE, 'dolma/tokenizer/reference-encodings.json');
export const NEOX_EOS = 50279;

const WORDS = [
  'the', 'tokenizer', 'corpus', "don't", "we'll", 'Straße', 'naïve', 'café', 'Ünïcödé', 'Привет', 'мир', 'ελληνικά', 'שלום', 'مرحبا',
  '中文', '日本語のテキスト', '한국어', 'हिन्दी', 'ไทย', '😀', '👩‍👩‍👧', '🇫🇷', '1234567', '3.14159', '$100', '#tag', '@user', 'e-mail',
  '|||EMAIL_ADDRESS|||', '|||PHONE_NUMBER|||', '<|endoftext|>', '(parens)', '[brackets]', '{"json": 1}', 'snake_case', 'CamelCase', 'x²', '½',
];
const SPACES = [' ', ' ', ' ', '  ', '   ', '\n', '\n\n', '\t', ' \n', '\r\n', '    ', '\u00a0', '\u3000', '\u2028'];

/** Deterministic texts that exercise scripts, emoji, digits, punctuation, whitespace runs and added tokens. */
export function variedTexts(seed: number, count: number): string[] {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let s = '';
    const n = 5 + Math.floor(rand() * 60);
    for (let w = 0; w < n; w++) s += pick(WORDS) + (rand() < 0.8 ? ' ' : pick(SPACES));
    if (rand() < 0.2) s += 'z'.repeat(60 + Math.floor(rand() * 200)) + 'é'.repeat(Math.floor(rand() * 40));
    out.push(s);
  }
  return out;
}

export interface OutputRow {
  part: string;
  start: number;
  end: number;
  id: string;
  src: string;
  loc: number;
  tokens: number[];
}

/** Every row of every `part-*.csv.gz` under `dir` with its token slice (a plain CSV reader: tests avoid quoted fields here). */
export function readOutputs(dir: string, bytesPerToken: 2 | 4 = 2): OutputRow[] {
  const rows: OutputRow[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.csv.gz')).sort()) {
    const npy = readFileSync(join(dir, name.replace(/\.csv\.gz$/, '.npy')));
    const view = new DataView(npy.buffer, npy.byteOffset, npy.byteLength);
    const at = (i: number): number => (bytesPerToken === 2 ? view.getUint16(i * 2, true) : view.getUint32(i * 4, true));
    for (const line of gunzipSync(readFileSync(join(dir, name))).toString('utf8').split('\r\n')) {
      if (line === '') continue;
      const [start, end, id, src, loc] = line.split(',') as [string, string, string, string, string];
      const tokens: number[] = [];
      for (let i = Number(start); i < Number(end); i++) tokens.push(at(i));
      rows.push({ part: name, start: Number(start), end: Number(end), id, src, loc: Number(loc), tokens });
    }
  }
  return rows;
}
