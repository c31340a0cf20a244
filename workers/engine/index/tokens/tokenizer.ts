// The tokenizer an index counts with: loaded as `assay tokens` loads it, identified by name, content sha256 and EOS id.
import { isAbsolute } from 'node:path';
import { AssayError } from '../../errors.js';
import { sha256File } from '../../manifest/write.js';
import { gpt2Sha256 } from '../../tokenize/tokenizer/gpt2.js';
import { loadTokenizer, type TextTokenizer } from '../../tokenize/tokenizer/load.js';

/** What the index records about the tokenizer its counts come from (meta keys `tokenizer`, `tokenizer_sha256`, `tokenizer_eos`). */
export interface CountingTokenizer {
  /** A built-in name as given (`gpt2`), or the absolute path of the tokenizer.json. */
  name: string;
  /** Of the tokenizer.json file; of the ranks table for a built-in. */
  sha256: string;
  /** Appended to every document unless its text already ends with it, as `assay tokens --tokenizer.eos_token_id`. */
  eos: number;
}

/** End-of-document tokens by convention (GPT-2/NeoX/OLMo, Llama 3, Llama 2/T5, Gemma), tried in this order. */
const EOS_NAMES = ['<|endoftext|>', '<|end_of_text|>', '</s>', '<eos>'];

/** Counts are the same iff the table and the EOS are: a tokenizer.json moved elsewhere keeps its counts. */
export const sameCounts = (a: CountingTokenizer, b: CountingTokenizer): boolean => a.sha256 === b.sha256 && a.eos === b.eos;

/**
 * Loads `nameOrPath` (resolved against `cwd`) for counting. Errors name the option (`tokenizer`) and the path;
 * without `eosTokenId`, the tokenizer's conventional end-of-text token is the EOS, or it is an error to say which.
 */
export async function openCountingTokenizer(nameOrPath: string, eosTokenId: number | undefined, cwd: string): Promise<{ tokenizer: TextTokenizer; info: CountingTokenizer }> {
  let tokenizer: TextTokenizer;
  try {
    tokenizer = await loadTokenizer({ nameOrPath, cwd });
  } catch (e) {
    if (!(e instanceof AssayError)) throw e;
    throw new AssayError(e.code, e.detail, { ...(e.file !== undefined ? { file: e.file } : { field: 'tokenizer' }), cause: e });
  }
  let eos = eosTokenId;
  if (eos === undefined) {
    eos = EOS_NAMES.map((t) => tokenizer.tokenToId(t)).find((id) => id !== undefined);
    if (eos === undefined) {
      throw new AssayError('CONFIG', `cannot tell which token of ${tokenizer.name} ends a document (none of ${EOS_NAMES.join(' ')}); give --tokenizer.eos_token_id ID as for \`assay tokens\``, { field: 'tokenizer' });
    }
  } else if (!Number.isInteger(eos) || eos < 0 || eos >= tokenizer.vocabSize) {
    throw new AssayError('CONFIG', `${eos} is not a token id of ${tokenizer.name} (0 … ${tokenizer.vocabSize - 1})`, { field: 'tokenizer.eos_token_id' });
  }
  // loadTokenizer names a file it loaded by its absolute path, a built-in by the name given.
  const sha256 = isAbsolute(tokenizer.name) ? await sha256File(tokenizer.name) : await gpt2Sha256();
  return { tokenizer, info: { name: tokenizer.name, sha256, eos } };
}
