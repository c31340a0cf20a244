// The slice of the fasttext.wasm.js (Emscripten + embind) module we use, and host-file streaming into it.
import fs from 'node:fs';
import { getFastTextModule } from 'fasttext.wasm.js';

/** embind `std::vector<std::pair<float, std::string>>`; a C++ object that must be `delete()`d. */
export interface NativePredictions {
  size(): number;
  get(i: number): [number, string];
  delete(): void;
}

interface NativeVector<T> {
  size(): number;
  get(i: number): T;
  delete(): void;
}

/** embind `fasttext::FastText`. C++ exceptions surface as bare numbers (exception pointers). */
export interface NativeFastText {
  loadModel(path: string): void;
  /** `predictLine` on the bytes up to the first `\n`; k = -1 for all labels. */
  predict(text: Uint8Array | string, k: number, threshold: number): NativePredictions;
  getLabels(): [NativeVector<string>, NativeVector<number>];
  train(args: NativeArgs, progress: (...values: number[]) => void): void;
  saveModel(path: string): void;
  readonly isQuant: boolean;
  delete(): void;
}

/** embind `fasttext::Args`: plain numeric/string fields, enums as embind enum values. */
export type NativeArgs = Record<string, unknown>;

interface DeviceOps {
  read(stream: unknown, buffer: Int8Array, offset: number, length: number, pos: number): number;
  write(): number;
}

interface WasmFS {
  makedev(major: number, minor: number): number;
  registerDevice(dev: number, ops: DeviceOps): void;
  mkdev(path: string, mode: number, dev: number): void;
  unlink(path: string): void;
  writeFile(path: string, data: Uint8Array | string): void;
  readFile(path: string): Uint8Array;
  ErrnoError: new (errno: number) => Error;
}

export interface FastTextWasm {
  /** What the runtime printed to stderr (e.g. `Aborted()` when a corrupt file trips an assertion). */
  messages: string[];
  FS: WasmFS;
  FastText: new () => NativeFastText;
  Args: new () => NativeArgs;
  ModelName: Record<string, unknown>;
  LossName: Record<string, unknown>;
}

/**
 * A fresh module instance. One per model: WASM memory never shrinks and is capped at 2 GiB per
 * instance, so giving each model its own heap lets a released model's memory be garbage collected.
 */
export async function newWasm(): Promise<FastTextWasm> {
  const messages: string[] = [];
  // Extra keys are passed to the Emscripten factory; keep its stderr ("Aborted()") for our errors.
  const moduleArgs = { print: () => undefined, printErr: (s: string) => void messages.push(s) };
  // The package's own types describe FS only partially; the runtime object has the full wasmfs API.
  const wasm = (await getFastTextModule(moduleArgs as Parameters<typeof getFastTextModule>[0])) as unknown as FastTextWasm;
  return Object.assign(wasm, { messages });
}

const EIO = 29;
let nextDevice = 1;

/** A host read error seen by the device, so a failed parse can name it. */
export interface DeviceStats {
  error: unknown;
}

/**
 * Exposes a host file inside the WASM filesystem as a read-only device whose reads are `pread`s on
 * the host file. fasttext.wasm.js's own `loadModel(url)` copies the whole file into the WASM heap
 * first (`FS.writeFile`, plus a temporary copy), so a model needs ~3× its size in a heap capped at
 * 2 GiB and files above ~680 MB fail; streaming needs only the model's own matrices.
 */
export function mountHostFile(wasm: FastTextWasm, fd: number): { path: string; stats: DeviceStats } {
  const stats: DeviceStats = { error: undefined };
  const dev = wasm.FS.makedev(64 + nextDevice, 0);
  const path = `/assay-model-${nextDevice++}`;
  wasm.FS.registerDevice(dev, {
    read(_stream, buffer, offset, length, pos) {
      try {
        return fs.readSync(fd, buffer, offset, length, pos);
      } catch (e) {
        stats.error = e;
        throw new wasm.FS.ErrnoError(EIO);
      }
    },
    write() {
      throw new wasm.FS.ErrnoError(EIO);
    },
  });
  wasm.FS.mkdev(path, 0o444, dev);
  return { path, stats };
}
