// Dolma's document mode (src/deduper.rs:232-311): one key per document, chosen by a JSONPath.
import { AssayError } from '../../errors.js';
import { compileJsonPath } from '../../mix/filters/jsonpath/index.js';
import type { Json } from '../../mix/filters/types.js';
import { inPartition, type ApplyMode, type ModeContext } from './modes.js';
import { countWords, isBlank } from './words.js';

export interface DocumentsSettings {
  key: string;
  minWords: number;
  minLength: number;
  skipEmpty: boolean;
}

export function documentsMode(s: DocumentsSettings, ctx: ModeContext): ApplyMode {
  let path: ReturnType<typeof compileJsonPath>;
  try {
    path = compileJsonPath(s.key);
  } catch (e) {
    throw new AssayError('CONFIG', `invalid JSONPath ${JSON.stringify(s.key)}: ${(e as Error).message}`, { field: 'dedupe.documents.key', cause: e });
  }
  const { filter, enc } = ctx;
  return (record, file, line) => {
    const key = path.findAll(record as Json)[0];
    if (typeof key !== 'string') {
      throw new AssayError('PARSE', `dedupe key ${s.key} ${key === undefined ? 'is missing' : 'is not a string'} (Dolma needs a string key on every document)`, { file, line });
    }
    // Dolma's else-chain: with min_words set, long-enough keys are neither checked nor inserted.
    if (s.minWords > 0) return countWords(key) < s.minWords ? [] : undefined;
    const bytes = Buffer.byteLength(key, 'utf8');
    if (bytes < s.minLength) return [];
    if (s.skipEmpty && isBlank(key)) return [];
    const h0 = filter.locate(enc.one(key));
    if (!inPartition(ctx, h0)) return [];
    if (filter.has()) return [[0, bytes, 1]];
    if (!ctx.readOnly) filter.add();
    return undefined;
  };
}
