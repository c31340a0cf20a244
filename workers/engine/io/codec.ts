// Compression codecs of Dolma files: inference from the file name, config names, magic-byte sniffing.
import { basename } from 'node:path';
import { AssayError } from '../errors.js';

export type Codec = 'gzip' | 'zstd' | 'plain';

/**
 * Dolma's rule (Rust `src/io.rs`, spec §1.6): the last extension of the file name, after dropping a
 * trailing `.tmp`, decides — `gz` → gzip, `zst` → zstd, anything else → plain.
 * Deviation: `.zstd` also means zstd. Dolma's Python side (smart_open, `core/utils.py`) decodes
 * `.zstd` while its Rust side reads it as plain bytes unless `compression.input: zst` is set; the
 * Python reading is the one that cannot silently produce garbage, so Assay follows it everywhere.
 */
export function inferCodec(path: string): Codec {
  let name = basename(path);
  if (name.endsWith('.tmp')) name = name.slice(0, -'.tmp'.length);
  switch (rustExtension(name)) {
    case 'gz':
      return 'gzip';
    case 'zst':
    case 'zstd':
      return 'zstd';
    default:
      return 'plain';
  }
}

/** Rust `Path::extension`: text after the last dot, but a leading dot alone (`.gz`) is not one. */
function rustExtension(name: string): string {
  if (name === '..') return '';
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1);
}

const CODEC_NAMES: Record<string, Codec> = {
  gz: 'gzip',
  gzip: 'gzip',
  zst: 'zstd',
  zstd: 'zstd',
  '': 'plain',
  plain: 'plain',
  jsonl: 'plain',
  none: 'plain',
};

/** A codec name from a config override (`compression.input` / `compression.output`). */
export function parseCodecName(name: string, field?: string): Codec {
  const codec = CODEC_NAMES[name.trim().toLowerCase()];
  if (codec === undefined) {
    const known = Object.keys(CODEC_NAMES)
      .map((k) => JSON.stringify(k))
      .join(', ');
    throw new AssayError('CONFIG', `unknown compression ${JSON.stringify(name)} (expected one of ${known})`, {
      ...(field === undefined ? {} : { field }),
    });
  }
  return codec;
}

/** The file-name extension Dolma's mixer gives outputs of a codec (`src/shard.rs:509-523`). */
export function extForCodec(codec: Codec): string {
  return codec === 'gzip' ? '.gz' : codec === 'zstd' ? '.zst' : '';
}

/** The codec whose magic number starts `head`, or undefined (plain text has no magic). */
export function sniffCodec(head: Uint8Array): Codec | undefined {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd';
  return undefined;
}

/**
 * The codec to decode a file with: an explicit override always wins; otherwise recognised magic
 * bytes beat the extension (a `.jsonl` that is really gzip gets decoded). A `.gz`/`.zst` whose bytes
 * carry no magic keeps its extension codec, so a damaged header is reported instead of being read
 * as plain garbage.
 */
export function chooseReadCodec(path: string, head: Uint8Array, override?: Codec): Codec {
  if (override !== undefined) return override;
  return sniffCodec(head) ?? inferCodec(path);
}
