// Option pieces and helpers shared by the fastText taggers.
import path from 'node:path';
import { z } from 'zod';
import type { TaggerContext, TagSpan } from '../../types.js';
import { DEFAULT_LID_MODEL } from './model.js';

/** `model_path` of the language-id taggers: the shipped quantised model unless the user has lid.176.bin. */
export const lidModelPath = z
  .string()
  .min(1)
  .optional()
  .describe(
    'fastText LID model (.bin/.ftz), relative to the run directory. Default: the lid.176.ftz shipped with ' +
      'fasttext.wasm.js (quantised: same labels as lid.176.bin, probabilities differ by up to a few hundredths). ' +
      'Point it at lid.176.bin for Dolma/DataTrove-identical scores.',
  );

/** Absolute model path: relative option paths resolve against the run directory. */
export function resolveModelPath(file: string | undefined, ctx: TaggerContext): string {
  return file === undefined ? DEFAULT_LID_MODEL : path.resolve(ctx.cwd, file);
}

/** fastText label without its `__label__` prefix (Dolma's `label.replace("__label__", "")`). */
export const stripLabel = (label: string): string => label.replace('__label__', '');

/** A span over the whole document. */
export const docSpan = (text: string, type: string, score: number): TagSpan => ({ start: 0, end: text.length, type, score });
