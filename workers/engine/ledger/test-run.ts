// Test helper: the makeDataset corpus mixed with a recipe that exercises every fate, then tokenized, with its index open.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex, PreviewEngine } from '../index/index.js';
import { makeDataset } from '../index/test-dataset.js';
import { parseMixerConfig } from '../mix/config.js';
import { runMix, type MixOptions } from '../mix/mixer.js';
import { readJsonlFile } from '../testing.js';
import { runTokens } from '../tokenize/runtime.js';
import { NEOX_EOS, NEOX_JSON } from '../tokenize/test-helpers.js';

/** jq, so a removal can be restated as one more exclude rule (`.id == …`). */
export function ledgerRecipe(out: string, excludeIds: readonly string[] = []): string {
  const ids = excludeIds.map((id) => `.id == ${JSON.stringify(id)}`).join(' or ');
  return `streams:
  - name: s0
    documents: [documents/**/*]
    attributes: [gopher, pii, misc]
    output: {path: ${out}, max_size_in_bytes: 20000, min_text_length: 120}
    filter:
      syntax: jq
      include: ['.attributes.misc__char_length_v1__length[0][2] > 10']
      exclude:
        - '.attributes.gopher__gopher_v1__word_count[0][2] < 8'
        - '(.metadata | type) == "object" and .metadata.lang == "de"'${ids ? `\n        - '${ids}'` : ''}
    span_replacement:
      - span: '$.attributes.pii__pii_regex_v2__EMAIL_ADDRESS'
        min_score: 0.1
        replacement: '|||EMAIL|||'
`;
}

export const mixAt = (root: string, out: string, opts: MixOptions & { excludeIds?: readonly string[] } = {}): ReturnType<typeof runMix> =>
  runMix(parseMixerConfig(ledgerRecipe(out, opts.excludeIds), 'recipe.yaml'), { cwd: root, processes: 1, ...opts });

export const tokensAt = (root: string, out: string, dest: string): ReturnType<typeof runTokens> =>
  runTokens({ documents: [`${out}/*.gz`], destination: dest, tokenizer: { nameOrPath: NEOX_JSON, eosTokenId: NEOX_EOS }, cwd: root, maxSize: 3000 });

/** The dataset, indexed, mixed into out/v1 and tokenized into tok/v1. */
export async function ledgerWorkspace(root: string): Promise<{ docs: Record<string, unknown>[]; engine: PreviewEngine }> {
  const docs = await makeDataset(root);
  await buildIndex(root);
  await mixAt(root, 'out/v1');
  await tokensAt(root, 'out/v1', 'tok/v1');
  return { docs, engine: PreviewEngine.open(root) };
}

/** Every document of a mix output folder, shard by shard, with its shard and 1-based line. */
export function shardRows(dir: string): { file: string; line: number; doc: Record<string, unknown> }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.gz'))
    .sort()
    .flatMap((f) => readJsonlFile(join(dir, f)).map((doc, i) => ({ file: join(dir, f), line: i + 1, doc })));
}

/** Token ids of `npy` (uint16, as the recipe's tokenizer needs) in [start, end). */
export function tokenSlice(npy: string, start: number, end: number): number[] {
  const b = readFileSync(npy);
  return Array.from(new Uint16Array(b.buffer, b.byteOffset, b.byteLength / 2).subarray(start, end));
}
