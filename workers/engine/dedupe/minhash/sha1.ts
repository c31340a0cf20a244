// SHA-1 of short byte ranges, returning only the first 8 digest bytes: one JS call per shingle instead of a crypto round trip.

const W = new Int32Array(80);
const BLOCK = new Uint8Array(64);

/**
 * SHA-1 of `data[start, end)`. Writes the first 8 digest bytes read as a little-endian u64 (DataTrove's
 * `struct.unpack("<Q", sha1(s).digest()[:8])`) to `out[at]` (low 32 bits) and `out[at + 1]` (high 32 bits).
 * node:crypto costs ~1 µs per call in call overhead alone; this runs the 80 rounds inline.
 */
export function sha1Prefix64(data: Uint8Array, start: number, end: number, out: Uint32Array, at: number): void {
  let h0 = 0x67452301, h1 = 0xefcdab89 | 0, h2 = 0x98badcfe | 0, h3 = 0x10325476, h4 = 0xc3d2e1f0 | 0;
  const len = end - start;
  const blocks = ((len + 8) >>> 6) + 1;
  for (let blk = 0; blk < blocks; blk++) {
    const base = start + blk * 64;
    // Build the block: message bytes, the 0x80 marker, zeros, then the bit length in the last 8 bytes.
    for (let i = 0; i < 64; i++) {
      const pos = base + i;
      BLOCK[i] = pos < end ? (data[pos] as number) : pos === end ? 0x80 : 0;
    }
    if (blk === blocks - 1) {
      const bits = len * 8;
      BLOCK[56] = 0; BLOCK[57] = 0; BLOCK[58] = 0;
      BLOCK[59] = (bits / 0x100000000) & 0xff;
      BLOCK[60] = bits >>> 24; BLOCK[61] = (bits >>> 16) & 0xff; BLOCK[62] = (bits >>> 8) & 0xff; BLOCK[63] = bits & 0xff;
    }
    for (let i = 0; i < 16; i++) {
      const j = i * 4;
      W[i] = ((BLOCK[j] as number) << 24) | ((BLOCK[j + 1] as number) << 16) | ((BLOCK[j + 2] as number) << 8) | (BLOCK[j + 3] as number);
    }
    for (let i = 16; i < 80; i++) {
      const x = (W[i - 3] as number) ^ (W[i - 8] as number) ^ (W[i - 14] as number) ^ (W[i - 16] as number);
      W[i] = (x << 1) | (x >>> 31);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number, k: number;
      if (i < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
      else if (i < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
      else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc | 0; }
      else { f = b ^ c ^ d; k = 0xca62c1d6 | 0; }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + (W[i] as number)) | 0;
      e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = t;
    }
    h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0;
  }
  out[at] = bswap(h0);
  out[at + 1] = bswap(h1);
}

const bswap = (x: number): number => (((x & 0xff) << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24)) >>> 0;
