// Opens a fastText model file and checks its header, so bad files fail with a reason the C++ side can't give.
import fs from 'node:fs';
import { AssayError } from '../../../errors.js';
import { expectedModelLength } from './model-layout.js';

/** `FASTTEXT_FILEFORMAT_MAGIC_INT32` and `FASTTEXT_VERSION` of the fastText 0.9 sources the WASM is built from. */
const MAGIC = 793712314;
const MAX_VERSION = 12;
/** magic + version + Args (12 int32 + one double). */
const HEADER_BYTES = 8 + 12 * 4 + 8;
/** Emscripten build flag of fasttext.wasm.js (`getHeapMax`); the model's matrices must fit in it. */
export const WASM_HEAP_MAX = 2 ** 31;
/** Room the runtime itself needs (stack, dictionary hash table, prediction buffers). */
const HEAP_RESERVE = 96 * 2 ** 20;

const MODEL_NAMES: Record<number, string> = { 1: 'cbow', 2: 'skipgram', 3: 'supervised' };

export interface ModelHeader {
  version: number;
  dim: number;
  wordNgrams: number;
  model: string;
  bucket: number;
}

export interface OpenModel {
  fd: number;
  size: number;
  header: ModelHeader;
}

/** Opens `file` for streaming into the runtime; the caller closes `fd`. Throws AssayError IO. */
export function openModelFile(file: string): OpenModel {
  let fd: number;
  let size: number;
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) throw new Error('not a regular file');
    size = st.size;
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new AssayError('IO', `cannot read fastText model: ${(e as Error).message}`, { file, cause: e });
  }
  try {
    return { fd, size, header: checkHeader(file, fd, size) };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

function checkHeader(file: string, fd: number, size: number): ModelHeader {
  const fail = (why: string): never => {
    throw new AssayError('IO', `not a usable fastText model: ${why}`, { file });
  };
  if (size < HEADER_BYTES) fail(`${size} bytes is shorter than a fastText header (${HEADER_BYTES} bytes)`);
  const buf = Buffer.alloc(HEADER_BYTES);
  fs.readSync(fd, buf, 0, HEADER_BYTES, 0);
  const magic = buf.readInt32LE(0);
  const version = buf.readInt32LE(4);
  if (magic !== MAGIC) {
    // A .vec file starts with "<words> <dim>\n".
    const hint = /^\d+ \d+\r?\n/.test(buf.toString('latin1'))
      ? ' (it looks like a text .vec file; only binary .bin/.ftz models can be loaded)'
      : '';
    fail(`wrong magic number 0x${(magic >>> 0).toString(16)} (expected 0x${MAGIC.toString(16)})${hint}`);
  }
  if (version > MAX_VERSION || version < 11) fail(`file format version ${version}; the runtime reads 11–${MAX_VERSION}`);
  const int = (i: number): number => buf.readInt32LE(8 + 4 * i);
  const modelId = int(7);
  const model = MODEL_NAMES[modelId] ?? `unknown (${modelId})`;
  if (modelId !== 3) fail(`it is a ${model} model; only supervised (classifier) models predict labels`);
  if (size > WASM_HEAP_MAX - HEAP_RESERVE) {
    fail(
      `${size} bytes cannot fit: fasttext.wasm.js is a wasm32 build whose heap is capped at 2 GiB, ` +
        `and the model's matrices alone are about the file's size`,
    );
  }
  // fastText (native and WASM) loads a truncated file without complaint, with zeroed weights.
  const expected = expectedModelLength(fd, size, HEADER_BYTES);
  if (expected > size) {
    fail(
      expected === Infinity
        ? `the file (${size} bytes) ends inside its dictionary or matrix headers (truncated download?)`
        : `the file is ${size} bytes but its dictionary and matrix sizes add up to ${expected} (truncated download?)`,
    );
  }
  return { version, dim: int(0), wordNgrams: int(5), model, bucket: int(8) };
}
