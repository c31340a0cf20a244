// Resolve `tokenizer.name_or_path`: a local tokenizer.json (or a folder holding one), else a built-in name.
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AssayError } from '../../errors.js';
import { GPT2_NAMES, loadGpt2 } from './gpt2.js';
import { loadTokenizerJson } from './hf.js';
import type { TextTokenizer } from './types.js';

export { requiredDtype, type TextTokenizer } from './types.js';

export interface TokenizerRequest {
  nameOrPath: string;
  encodeSpecialTokens?: boolean;
  cwd?: string;
}

/** As Dolma's `make_tokenizer`: an existing file wins over a name; Hub ids cannot be downloaded (Assay is offline). */
export async function loadTokenizer(req: TokenizerRequest): Promise<TextTokenizer> {
  const path = resolve(req.cwd ?? process.cwd(), req.nameOrPath);
  const st = await stat(path).catch(() => null);
  const opts = { encodeSpecialTokens: req.encodeSpecialTokens };
  if (st?.isFile()) return loadTokenizerJson(path, opts);
  if (st?.isDirectory()) {
    const inside = join(path, 'tokenizer.json');
    if ((await stat(inside).catch(() => null))?.isFile()) return loadTokenizerJson(inside, opts);
    throw new AssayError('CONFIG', `${path} is a folder without a tokenizer.json`, { field: 'tokenizer.name_or_path' });
  }
  if ((GPT2_NAMES as readonly string[]).includes(req.nameOrPath)) return loadGpt2(req.nameOrPath, opts);
  throw new AssayError(
    'CONFIG',
    `no tokenizer file at ${path}. Assay runs offline: give the path of a Hugging Face tokenizer.json ` +
      `(e.g. downloaded from the model's Hub page) or a built-in name (${GPT2_NAMES.join(', ')})`,
    { field: 'tokenizer.name_or_path' },
  );
}
