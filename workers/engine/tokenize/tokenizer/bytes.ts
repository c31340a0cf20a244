// GPT-2's byte-level alphabet (bytes ↔ printable characters) and a UTF-8 encoder into a reused buffer.

/** `bytes_to_unicode()` of GPT-2 / HF tokenizers: printable Latin-1 bytes map to themselves, the rest to U+0100…. */
function bytesToUnicode(): string[] {
  const table = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    table[b] = String.fromCharCode(printable ? b : 256 + extra++);
  }
  return table;
}

export const BYTE_TO_CHAR: readonly string[] = bytesToUnicode();
export const CHAR_TO_BYTE: ReadonlyMap<string, number> = new Map(BYTE_TO_CHAR.map((c, b) => [c, b]));

/**
 * UTF-8 bytes of `text` into a growing scratch buffer, without allocating per call. A lone
 * surrogate becomes U+FFFD (EF BF BD), as TextEncoder and Rust's lossy conversion do.
 */
export class Utf8Scratch {
  buf = new Uint8Array(256);

  /** Returns the number of bytes written to `this.buf`. */
  encode(text: string): number {
    if (this.buf.length < text.length * 3) this.buf = new Uint8Array(text.length * 3 + 64);
    const buf = this.buf;
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        buf[n++] = c;
        continue;
      }
      if (c < 0x800) {
        buf[n++] = 0xc0 | (c >> 6);
        buf[n++] = 0x80 | (c & 0x3f);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          buf[n++] = 0xf0 | (c >> 18);
          buf[n++] = 0x80 | ((c >> 12) & 0x3f);
          buf[n++] = 0x80 | ((c >> 6) & 0x3f);
          buf[n++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      buf[n++] = 0xe0 | (c >> 12);
      buf[n++] = 0x80 | ((c >> 6) & 0x3f);
      buf[n++] = 0x80 | (c & 0x3f);
    }
    return n;
  }
}
