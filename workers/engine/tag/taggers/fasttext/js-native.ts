// fastText's hidden vector through the C addon when it is built: js-predict.ts's `embed`, bit for bit, with no warm-up.
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import type { JsModel } from './js-model.js';

/**
 * One predictor's native side: the model's rows (a quantized model's decoded in C when a token first needs them), its words
 * copied and its pruned buckets' table built in C, and a token cache of its own there, which the garbage collector never traces.
 */
export class NativeEmbedder {
  private constructor(
    private readonly addon: NativeAddon,
    private readonly handle: object,
  ) {}

  /** null when the addon is not built, is turned off (`ASSAY_NATIVE=0`), or refuses the model. */
  static create(m: JsModel, cacheLimit: number): NativeEmbedder | null {
    const addon = nativeAddon();
    if (addon === null) return null;
    const { bytes, at, ids } = m.words.entries;
    const params = Int32Array.of(m.dim, m.minn, m.maxn, m.nwords, m.bucket, cacheLimit);
    try {
      const s = m.input.stored;
      const handle =
        'dense' in s
          ? addon.create(params, s.dense, bytes, at, ids, m.prunePairs)
          : addon.create(params, null, bytes, at, ids, m.prunePairs, s.codes, s.centroids, s.norms, Int32Array.of(m.input.rows, s.nsubq, s.dsub, s.lastdsub));
      return new NativeEmbedder(addon, handle);
    } catch {
      // A model whose tables the C side's checks refuse stays with the JavaScript, which reads any model readJsModel accepts.
      return null;
    }
  }

  /** The hidden vector of `line[0, end)` into `hidden`; the number of rows summed (0: none, `hidden` is zero). */
  embed(line: Uint8Array, end: number, hidden: Float32Array): number {
    return this.addon.embed(this.handle, line, end, hidden);
  }
}
