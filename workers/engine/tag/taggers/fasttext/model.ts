// A loaded fastText classifier: async load from any path (shared, ref-counted), synchronous top-k prediction.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AssayError } from '../../../errors.js';
import { fileStamp } from '../../../io/stamp.js';
import { readJsModel } from './js-model.js';
import { JsPredictor, type FirstAnd } from './js-predict.js';
import { openModelFile, type ModelHeader } from './model-file.js';
import { mountHostFile, newWasm, type NativeFastText } from './wasm.js';

/** The quantised LID-176 model shipped inside fasttext.wasm.js (lid.176.ftz, 938,013 bytes). */
export const DEFAULT_LID_MODEL = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve('fasttext.wasm.js')),
  '../models/language-identification/assets/lid.176.ftz',
);

export interface Prediction {
  /** The model's label as written in its training data, e.g. `__label__en`. */
  label: string;
  probability: number;
}

export interface FastTextModel {
  readonly path: string;
  readonly header: ModelHeader;
  readonly quantized: boolean;
  /** Which runtime predicts: `js` (js-predict.ts, fastText's arithmetic) or `wasm` (the C++ build). */
  readonly runtime: 'js' | 'wasm';
  /** Every label of the model, in the model's order. */
  readonly labels: readonly string[];
  /**
   * fastText `predict(line, k, threshold)`: labels by decreasing probability. fastText reads one
   * line, so everything after the first `\n` is ignored: callers replace newlines first, as the
   * taggers being ported do. k = -1 returns every label whose probability reaches `threshold`
   * (with threshold 0, fastText still prunes labels below about 1e-5, as in Python).
   * Lone surrogates are sent as U+FFFD (Python's fastText binding would raise instead).
   */
  predict(line: string, k?: number, threshold?: number): Prediction[];
  /**
   * `predict(text.replace(/\n/g, ' '), -1)`'s first prediction (null when it is empty) and the probability it gives
   * each of `labels` (undefined where it lists no such label). The JavaScript runtime answers hierarchical-softmax
   * models without ranking every label (or copying the text); otherwise this is `predict` read afterwards.
   * Optional so that stand-in models can skip it.
   */
  first?(text: string, labels: readonly string[]): FirstAnd;
  /** Drop this handle; the model is freed when the last handle is released. */
  release(): void;
}

interface Entry {
  refs: number;
  loaded: Promise<Loaded>;
}

/** One runtime per loaded model: the JavaScript predictor when it reproduces the model, else the C++ build. */
type Loaded = { header: ModelHeader; labels: string[]; quantized: boolean } & (
  | { js: JsPredictor; native: null }
  | { js: null; native: NativeFastText }
);

/** Models up to this size are also read for the JavaScript predictor (it holds its own decoded copy). */
const JS_MAX_BYTES = 64 * 2 ** 20;

export interface LoadOptions {
  /**
   * `auto` (default): predict in JavaScript when the model allows it — the same float32 arithmetic as fastText,
   * and on lid.176 several times faster than a call into WebAssembly per document; `wasm`: always the C++ build.
   */
  runtime?: 'auto' | 'wasm';
}

const cache = new Map<string, Entry>();
/**
 * Models in JavaScript nobody holds, kept loaded (oldest first): a tag run creates its taggers anew for every file,
 * and reloading lid.176 with cold token and row caches cost ≈ 10 ms plus a slower start on each file. A WebAssembly
 * model is freed with its last handle (its memory lives in the module's heap).
 */
const idle: string[] = [];
const IDLE_MAX = 2;

/**
 * Loads (or shares an already loaded) supervised model. Taggers call this in `create()` and
 * `release()` in `close()`, so several taggers on one model in a worker hold one copy.
 */
export async function loadFastTextModel(file: string = DEFAULT_LID_MODEL, opts: LoadOptions = {}): Promise<FastTextModel> {
  const abs = path.resolve(file);
  const useJs = opts.runtime !== 'wasm';
  const key = cacheKey(abs) + (useJs ? '' : '\0wasm');
  let entry = cache.get(key);
  const wasIdle = idle.indexOf(key);
  if (wasIdle >= 0) idle.splice(wasIdle, 1);
  if (entry === undefined) {
    entry = { refs: 0, loaded: loadNative(abs, useJs) };
    cache.set(key, entry);
    entry.loaded.catch(() => cache.delete(key));
  }
  entry.refs++;
  let loaded: Loaded;
  try {
    loaded = await entry.loaded;
  } catch (e) {
    entry.refs--;
    throw e;
  }
  return makeHandle(abs, key, entry, loaded);
}

/** The file as it is now; a file that cannot be stat'ed is keyed by its path, and openModelFile reports the error. */
const cacheKey = (abs: string): string => fileStamp(abs) ?? abs;

/** The JavaScript model, or null when it cannot reproduce the file (then WebAssembly loads it and reports errors). */
function readForJs(file: string, size: number): JsPredictor | null {
  if (size > JS_MAX_BYTES) return null;
  try {
    const m = readJsModel(fs.readFileSync(file));
    return m === null ? null : new JsPredictor(m);
  } catch {
    return null;
  }
}

async function loadNative(file: string, useJs: boolean): Promise<Loaded> {
  const { fd, size, header } = openModelFile(file);
  try {
    const js = useJs ? readForJs(file, size) : null;
    // openModelFile has checked the header and that the layout's sizes add up to the file's length.
    if (js !== null) return { header, labels: [...js.labels], quantized: js.quantized, js, native: null };
    const wasm = await newWasm();
    const { path: inWasm, stats } = mountHostFile(wasm, fd);
    const native = new wasm.FastText();
    try {
      native.loadModel(inWasm);
    } catch (e) {
      quietly(() => native.delete()); // after an Emscripten abort the module may refuse further calls
      const why = stats.error !== undefined
        ? `reading it failed: ${(stats.error as Error).message}`
        : `the fastText runtime could not parse it (${describe(e, wasm.messages)}: corrupt, or ${size} bytes of ` +
          'matrices did not fit the 2 GiB WASM heap)';
      throw new AssayError('IO', `cannot load fastText model: ${why}`, { file, cause: e });
    } finally {
      quietly(() => wasm.FS.unlink(inWasm));
    }
    return { native, header, labels: readLabels(native), quantized: native.isQuant, js: null };
  } finally {
    fs.closeSync(fd);
  }
}

function quietly(f: () => void): void {
  try {
    f();
  } catch {
    // the load error being reported is the one that matters
  }
}

/** C++ exceptions arrive as bare pointers; aborts as RuntimeError plus a stderr line. */
function describe(e: unknown, messages: string[]): string {
  if (typeof e === 'number') return 'C++ exception';
  return messages.at(-1) ?? (e instanceof Error ? e.message : String(e));
}

function readLabels(native: NativeFastText): string[] {
  const [words, counts] = native.getLabels();
  const out: string[] = [];
  for (let i = 0; i < words.size(); i++) out.push(words.get(i));
  words.delete();
  counts.delete();
  return out;
}

function makeHandle(file: string, key: string, entry: Entry, loaded: Loaded): FastTextModel {
  const { native, js } = loaded;
  let released = false;
  const handle: FastTextModel = {
    path: file,
    header: loaded.header,
    quantized: loaded.quantized,
    runtime: js === null ? 'wasm' : 'js',
    labels: loaded.labels,
    predict(line: string, k = -1, threshold = 0): Prediction[] {
      if (released) throw new AssayError('INTERNAL', 'fastText model used after release', { file });
      // The JavaScript predictor reads the line's UTF-8, where a lone surrogate is already U+FFFD.
      if (js !== null) return js.predict(line, k, threshold);
      if (native === null) throw new AssayError('INTERNAL', 'fastText model has no runtime', { file });
      // Buffer.from encodes lone surrogates as U+FFFD; embind's own encoder would swallow the next unit.
      const preds = native.predict(Buffer.from(line, 'utf8'), k, threshold);
      try {
        const out: Prediction[] = [];
        for (let i = 0; i < preds.size(); i++) {
          const [probability, label] = preds.get(i);
          out.push({ label, probability });
        }
        return out;
      } finally {
        preds.delete();
      }
    },
    first(text: string, labels: readonly string[]): FirstAnd {
      if (released) throw new AssayError('INTERNAL', 'fastText model used after release', { file });
      const fast = js?.first(text, labels);
      if (fast !== undefined && fast !== null) return fast;
      const preds = handle.predict(text.replace(/\n/g, ' '), -1);
      return { first: preds[0] ?? null, probabilities: labels.map((l) => preds.find((p) => p.label === l)?.probability) };
    },
    release(): void {
      if (released) return;
      released = true;
      if (--entry.refs !== 0 || cache.get(key) !== entry) return;
      if (native !== null) {
        cache.delete(key);
        native.delete();
        return;
      }
      idle.push(key);
      while (idle.length > IDLE_MAX) cache.delete(idle.shift() as string);
    },
  };
  return handle;
}
