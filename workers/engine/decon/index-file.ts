// The saved decontamination index: header (magic, version, n, normalisation, eval sets and their file hashes), checksum, body.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AssayError } from '../errors.js';
import { writeFileAtomic } from '../io/index.js';
import { DeconIndex, type IndexedItem, type SetStats } from './index.js';
import { NgramTable } from './ngram-table.js';
import { NORMALISATION } from './words.js';

/*
 * Layout (integers little-endian):
 *   0  8   magic "ASSAYDCN"
 *   8  4   format version
 *   12 4   n
 *   16 32  sha256 of every byte from offset 48 to the end
 *   48 4   header JSON length L, then L bytes of JSON (DeconHeader + vocabulary + items), zero-padded to 4
 *   .. 4   n-gram count G, then G·n u32 token ids, G+1 u32 posting offsets, the u32 postings
 */
const MAGIC = Buffer.from('ASSAYDCN', 'latin1');
export const DECON_FORMAT_VERSION = 1;
const FIXED = 48;

/** What an index was built from: a saved index is reused only when all of it matches the config. */
export interface DeconHeader {
  n: number;
  normalisation: string;
  sets: { name: string; fields: string[]; idField: string | null; sha256: string }[];
}

interface Body {
  header: DeconHeader;
  vocab: string[];
  items: IndexedItem[];
  stats: SetStats[];
}

/** The saved bytes' sha256 (the tagger options carry it, so resume markers change when the index does). */
export async function saveIndex(path: string, index: DeconIndex, header: DeconHeader): Promise<string> {
  const body: Body = { header, vocab: [...index.vocab.keys()], items: index.items, stats: index.sets };
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  const pad = (4 - (json.length % 4)) % 4;
  const t = index.table;
  const lens = Buffer.alloc(4);
  lens.writeUInt32LE(t.count);
  const parts = [Buffer.alloc(4), json, Buffer.alloc(pad), lens, u32(t.ids.subarray(0, t.count * index.n)), u32(index.offsets), u32(index.postings)];
  (parts[0] as Buffer).writeUInt32LE(json.length);
  const rest = Buffer.concat(parts);
  const head = Buffer.alloc(FIXED);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(DECON_FORMAT_VERSION, 8);
  head.writeUInt32LE(index.n, 12);
  createHash('sha256').update(rest).digest().copy(head, 16);
  const all = Buffer.concat([head, rest]);
  await writeFileAtomic(path, all, { codec: 'plain', mkdir: true });
  return createHash('sha256').update(all).digest('hex');
}

const u32 = (a: Uint32Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

export interface LoadedIndex {
  index: DeconIndex;
  header: DeconHeader;
  sha256: string;
}

/** Loads and verifies a saved index; damage is an IO error naming the file, never a silent reuse. */
export async function loadIndex(path: string): Promise<LoadedIndex> {
  const buf = await readFile(path).catch((e: Error) => {
    throw new AssayError('IO', `cannot read the decontamination index: ${e.message}`, { file: path });
  });
  const bad = (what: string): AssayError => new AssayError('IO', `decontamination index is ${what}; rebuild it (assay decon --rebuild)`, { file: path });
  if (buf.length < FIXED + 4 || !buf.subarray(0, 8).equals(MAGIC)) throw bad('not an Assay decontamination index (bad magic or truncated)');
  const version = buf.readUInt32LE(8);
  if (version !== DECON_FORMAT_VERSION) throw bad(`format version ${version}, this Assay reads version ${DECON_FORMAT_VERSION}`);
  if (!createHash('sha256').update(buf.subarray(FIXED)).digest().equals(buf.subarray(16, 48))) throw bad('corrupt (checksum mismatch)');
  const n = buf.readUInt32LE(12);
  const jsonLen = buf.readUInt32LE(FIXED);
  const body = JSON.parse(buf.subarray(FIXED + 4, FIXED + 4 + jsonLen).toString('utf8')) as Body;
  let at = FIXED + 4 + jsonLen + ((4 - (jsonLen % 4)) % 4);
  const count = buf.readUInt32LE(at);
  at += 4;
  const take = (len: number): Uint32Array => {
    // Copied out: the read buffer's offset need not be 4-aligned.
    const a = new Uint32Array(len);
    Buffer.from(a.buffer).set(buf.subarray(at, at + 4 * len));
    at += 4 * len;
    return a;
  };
  const ids = take(count * n);
  const offsets = take(count + 1);
  const postings = take(offsets[count] as number);
  if (at !== buf.length) throw bad('corrupt (length does not match its header)');
  const vocab = new Map(body.vocab.map((w, i) => [w, i]));
  const index = new DeconIndex(n, vocab, NgramTable.fromIds(n, ids, count), offsets, postings, body.items, body.stats);
  return { index, header: body.header, sha256: createHash('sha256').update(buf).digest('hex') };
}

/** Why a saved index cannot serve this config (null: it can). */
export function headerMismatch(saved: DeconHeader, wanted: DeconHeader): string | null {
  if (saved.n !== wanted.n) return `it holds ${saved.n}-grams, the config asks for ${wanted.n}`;
  if (saved.normalisation !== wanted.normalisation) return `it was normalised with ${saved.normalisation}, this Assay uses ${NORMALISATION}`;
  const a = JSON.stringify(saved.sets);
  if (a === JSON.stringify(wanted.sets)) return null;
  const names = (h: DeconHeader): string => h.sets.map((s) => s.name).join(', ');
  if (names(saved) !== names(wanted)) return `it holds eval sets [${names(saved)}], the config names [${names(wanted)}]`;
  const diff = wanted.sets.find((s, k) => JSON.stringify(s) !== JSON.stringify(saved.sets[k]));
  return `eval set '${diff?.name ?? '?'}' changed since it was built (its file's sha256, fields or id field differ)`;
}
