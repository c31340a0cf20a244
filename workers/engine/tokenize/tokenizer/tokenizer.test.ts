// Tokenizers: Dolma's gpt_neo reference ids, Assay's BPE against @huggingface/tokenizers and gpt-tokenizer, loading errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { heapKept, scratchDir } from '../../testing.js';
import { encodeText } from '../documents.js';
import { NEOX_EOS, NEOX_JSON, NEOX_REFERENCE, variedTexts } from '../test-helpers.js';
import { gpt2Pieces } from './byte-level.js';
import { loadTokenizer, requiredDtype } from './load.js';

const require = createRequire(import.meta.url);
const neoxJson = (): Record<string, unknown> => JSON.parse(readFileSync(NEOX_JSON, 'utf8')) as Record<string, unknown>;
const reference = JSON.parse(readFileSync(NEOX_REFERENCE, 'utf8')) as { cases: { text: string; gpt_neo: number[] }[] };
const hfIds = (hf: Tokenizer, text: string): number[] => hf.encode(text, { add_special_tokens: false }).ids;

/** Writes a variant of the GPT-NeoX fixture and loads it with both engines. */
async function variant(edit: (j: Record<string, unknown>) => void): Promise<{ ours: Awaited<ReturnType<typeof loadTokenizer>>; hf: Tokenizer }> {
  const j = neoxJson();
  edit(j);
  const path = join(scratchDir(), 'tokenizer.json');
  writeFileSync(path, JSON.stringify(j));
  return { ours: await loadTokenizer({ nameOrPath: path }), hf: new Tokenizer(j, {}) };
}

describe('GPT-NeoX test tokenizer (Dolma fixture)', () => {
  it("reproduces Dolma's gpt_neo reference ids with EOS 50279, with and without paragraph segmentation", async () => {
    const tok = await loadTokenizer({ nameOrPath: NEOX_JSON });
    expect(tok.engine).toBe('byte-level-bpe');
    expect(tok.vocabSize).toBe(50280);
    expect(requiredDtype(tok.vocabSize)).toBe('uint16');
    expect(reference.cases).toHaveLength(3);
    for (const c of reference.cases) {
      // The reference is Tokenizer.encode() of the raw text; these texts need no stripping except the trailing newline case.
      expect([...tok.encode(c.text), NEOX_EOS]).toEqual(c.gpt_neo);
      for (const segment of [false, true]) {
        const enc = encodeText(tok, c.text, { bos: null, eos: NEOX_EOS, segmentBeforeTokenization: segment });
        expect(enc?.ids).toEqual([...tok.encode(c.text.trim()), NEOX_EOS]);
      }
    }
  });

  it('gives the same ids as @huggingface/tokenizers on varied text, and decodes back to it', async () => {
    const tok = await loadTokenizer({ nameOrPath: NEOX_JSON });
    const hf = new Tokenizer(neoxJson(), {});
    const texts = variedTexts(7, 150);
    let compared = 0;
    for (const t of texts) {
      expect(tok.encode(t)).toEqual(hfIds(hf, t));
      expect(tok.decode(tok.encode(t))).toBe(t.normalize('NFC'));
      compared++;
    }
    expect(compared).toBe(150);
  });

  it('matches @huggingface/tokenizers for add_prefix_space, a Split + ByteLevel sequence, and ignore_merges', async () => {
    const texts = variedTexts(11, 40);
    const prefix = await variant((j) => Object.assign(j.pre_tokenizer as object, { add_prefix_space: true }));
    expect(prefix.ours.hasPrefixSpace).toBe(true);
    const pattern = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
    const split = await variant((j) => {
      j.pre_tokenizer = {
        type: 'Sequence',
        pretokenizers: [
          { type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false },
          { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
        ],
      };
    });
    const ignore = await variant((j) => Object.assign(j.model as object, { ignore_merges: true }));
    for (const v of [prefix, split, ignore]) {
      expect(v.ours.engine).toBe('byte-level-bpe');
      for (const t of texts) expect(v.ours.encode(t)).toEqual(hfIds(v.hf, t));
    }
  });

  it("splits whitespace as Oniguruma's \\s (U+0085 is a space, U+FEFF is not)", () => {
    // With JavaScript's \s these would be ['a', '\u0085\u0085', 'b'] and ['x', '\ufeff', '!'].
    expect(gpt2Pieces('a\u0085\u0085b')).toEqual(['a', '\u0085', '\u0085', 'b']);
    expect(gpt2Pieces('x\ufeff!')).toEqual(['x', '\ufeff!']);
    expect(gpt2Pieces("it's  fine\n\nok")).toEqual(['it', "'s", ' ', ' fine', '\n', '\n', 'ok']);
  });

  it('encodes special tokens as text with encode_special_tokens', async () => {
    const plain = await loadTokenizer({ nameOrPath: NEOX_JSON });
    const split = await loadTokenizer({ nameOrPath: NEOX_JSON, encodeSpecialTokens: true });
    expect(plain.encode('a<|endoftext|>b')).toContain(NEOX_EOS);
    expect(split.encode('a<|endoftext|>b')).not.toContain(NEOX_EOS);
    expect(split.decode(split.encode('a<|endoftext|>b'))).toBe('a<|endoftext|>b');
    // Non-special added tokens are still matched.
    expect(split.encode('|||EMAIL_ADDRESS|||')).toEqual([plain.tokenToId('|||EMAIL_ADDRESS|||')]);
  });
});

describe('built-in gpt2 (r50k_base from gpt-tokenizer)', () => {
  it('gives the ids of gpt-tokenizer, maps <|endoftext|> to 50256 anywhere (as HF gpt2) and round-trips', async () => {
    const r50k = require('gpt-tokenizer/encoding/r50k_base') as { encode: (t: string) => number[] };
    const tok = await loadTokenizer({ nameOrPath: 'gpt2' });
    expect(tok.vocabSize).toBe(50257);
    for (const t of variedTexts(3, 120)) {
      const pieces = t.split('<|endoftext|>');
      expect(tok.encode(t)).toEqual(pieces.flatMap((p, i) => (i === 0 ? r50k.encode(p) : [50256, ...r50k.encode(p)])));
      expect(tok.decode(tok.encode(t))).toBe(t);
    }
    expect((await loadTokenizer({ nameOrPath: 'r50k_base' })).encode('hello world')).toEqual(r50k.encode('hello world'));
  });

  it("its piece cache keeps copies, not views into the documents (100 documents of 0.5 MB, each with a word of its own, stay collectable)", async () => {
    const tok = await loadTokenizer({ nameOrPath: 'gpt2' });
    const kept = await heapKept(() => {
      for (let i = 0; i < 100; i++) {
        // A 16-letter word of its own per document: a regex match past V8's 13 characters is a view into the text.
        const word = Array.from({ length: 16 }, (_, k) => String.fromCharCode(97 + ((i * 7 + k * 13 + Math.floor(i / 26) * k) % 26))).join('');
        const ids = tok.encode(` ${word}${String.fromCharCode(97 + (i % 26))} ` + 'the cat sat on the mat. '.repeat(20_000));
        expect(ids.length).toBeGreaterThan(20_000);
      }
    });
    // Views would keep all 50 MB; copies keep a few kilobytes.
    expect(kept).toBeLessThan(10e6);
  });
});

describe('other tokenizer.json models run on @huggingface/tokenizers', () => {
  it('loads a WordPiece tokenizer and encodes with it', async () => {
    const path = join(scratchDir(), 'wp.json');
    const vocab = { '[UNK]': 0, hello: 1, world: 2, '##s': 3, '!': 4 };
    writeFileSync(
      path,
      JSON.stringify({
        version: '1.0',
        added_tokens: [],
        normalizer: { type: 'Lowercase' },
        pre_tokenizer: { type: 'BertPreTokenizer' },
        post_processor: null,
        decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
        model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
      }),
    );
    const tok = await loadTokenizer({ nameOrPath: path });
    expect(tok.engine).toBe('huggingface');
    expect(tok.vocabSize).toBe(5);
    expect(tok.encode('Hello worlds! zzz')).toEqual([1, 2, 3, 4, 0]);
  });
});

describe('loading errors', () => {
  it('names the missing file, explains Hub ids, and refuses a file that is not a tokenizer.json', async () => {
    const dir = scratchDir();
    await expect(loadTokenizer({ nameOrPath: 'nope/tokenizer.json', cwd: dir })).rejects.toThrow(/no tokenizer file at .*nope\/tokenizer\.json.*offline.*gpt2/);
    await expect(loadTokenizer({ nameOrPath: 'allenai/dolma2-tokenizer', cwd: dir })).rejects.toMatchObject({ code: 'CONFIG', field: 'tokenizer.name_or_path' });
    writeFileSync(join(dir, 'bad.json'), '{"model": ');
    await expect(loadTokenizer({ nameOrPath: 'bad.json', cwd: dir })).rejects.toThrow(/bad\.json: not a tokenizer\.json \(invalid JSON/);
    await expect(loadTokenizer({ nameOrPath: '.', cwd: dir })).rejects.toThrow(/folder without a tokenizer\.json/);
  });
});
