// Trains a supervised fastText model in the WASM runtime (Dolma's `BaseFastTextTagger.train`), offline.
import fs from 'node:fs';
import { AssayError } from '../../../errors.js';
import { newWasm } from './wasm.js';

/** Dolma's `train` defaults (`core/ft_tagger.py`): softmax, word bigrams, 100 epochs. */
export interface TrainOptions {
  lr?: number;
  dim?: number;
  ws?: number;
  epoch?: number;
  minCount?: number;
  minCountLabel?: number;
  minn?: number;
  maxn?: number;
  neg?: number;
  wordNgrams?: number;
  loss?: 'ns' | 'hs' | 'softmax' | 'ova';
  /** Hash buckets for word n-grams; Dolma's 2,000,000 × dim floats must fit the 2 GiB WASM heap. */
  bucket?: number;
  lrUpdateRate?: number;
  t?: number;
  label?: string;
  seed?: number;
}

const DEFAULTS: Required<TrainOptions> = {
  lr: 0.1,
  dim: 100,
  ws: 5,
  epoch: 100,
  minCount: 1,
  minCountLabel: 1,
  minn: 0,
  maxn: 0,
  neg: 5,
  wordNgrams: 2,
  loss: 'softmax',
  bucket: 2_000_000,
  lrUpdateRate: 100,
  t: 0.0001,
  label: '__label__',
  seed: 0,
};

/**
 * Trains on `trainFile` (fastText format: `__label__x text` per line) with one thread and writes
 * the `.bin` model to `outFile`. Synchronous inside: the WASM build has no threads.
 */
export async function trainSupervised(trainFile: string, outFile: string, options: TrainOptions = {}): Promise<void> {
  const opts = { ...DEFAULTS, ...options };
  let data: Buffer;
  try {
    data = fs.readFileSync(trainFile);
  } catch (e) {
    throw new AssayError('IO', `cannot read training file: ${(e as Error).message}`, { file: trainFile, cause: e });
  }
  if (!data.includes(opts.label)) {
    throw new AssayError('PARSE', `no "${opts.label}" labels: not a fastText training file`, { file: trainFile });
  }
  const wasm = await newWasm();
  const native = new wasm.FastText();
  const args = new wasm.Args();
  try {
    wasm.FS.writeFile('/train.txt', data);
    const { loss, ...numeric } = opts;
    Object.assign(args, numeric, {
      input: '/train.txt',
      output: '/unused',
      model: wasm.ModelName.supervised,
      loss: wasm.LossName[loss],
      thread: 1,
      verbose: 0,
    });
    try {
      native.train(args, () => undefined);
    } catch (e) {
      const floats = opts.bucket * opts.dim;
      throw new AssayError('INTERNAL', `fastText training failed (out of WASM memory? n-gram buckets alone need ${floats} floats)`, {
        file: trainFile,
        cause: e,
      });
    }
    // saveModel opens with O_TRUNC, which wasmfs device files cannot honour, so the model is saved
    // into the in-heap filesystem and copied out (training peaks at about twice the model size).
    native.saveModel('/model.bin');
    const bytes = wasm.FS.readFile('/model.bin');
    wasm.FS.unlink('/model.bin');
    try {
      fs.writeFileSync(outFile, bytes);
    } catch (e) {
      throw new AssayError('IO', `cannot write model: ${(e as Error).message}`, { file: outFile, cause: e });
    }
  } finally {
    native.delete();
    (args as { delete?: () => void }).delete?.();
  }
}
