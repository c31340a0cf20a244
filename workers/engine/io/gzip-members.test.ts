import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GzipMemberDecoder } from './gzip-members.js';

/** Feeds `data` in chunks of the given sizes (cycled) and collects the output or the error. */
async function decode(data: Buffer, sizes: number[] = [65536]): Promise<{ out: Buffer; error: Error | null; d: GzipMemberDecoder }> {
  const chunks: Buffer[] = [];
  for (let i = 0, k = 0; i < data.length; k++) {
    const n = sizes[k % sizes.length] as number;
    chunks.push(data.subarray(i, i + n));
    i += n;
  }
  const d = new GzipMemberDecoder();
  const got: Buffer[] = [];
  let error: Error | null = null;
  await new Promise<void>((ok) => {
    d.on('data', (c: Buffer) => got.push(c));
    d.on('end', ok);
    d.on('error', (e) => {
      error = e;
      ok();
    });
    Readable.from(chunks).pipe(d);
  });
  return { out: Buffer.concat(got), error, d };
}

/** What zlib's own gunzip says: the text or its error. */
function reference(data: Buffer): { out: Buffer | null; message: string | null } {
  try {
    return { out: gunzipSync(data), message: null };
  } catch (e) {
    return { out: null, message: (e as Error).message };
  }
}

let seed = 7;
const rand = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
const text = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => 'abcdefgh \n'[rand(10)]).join(''));

describe('gzip members, one at a time', () => {
  it('decodes members of every size as gunzip does, and knows where each starts', async () => {
    const parts = [text(0), text(10), text(300_000), text(5), Buffer.alloc(3_000_000, 'a'), text(70_000)];
    const members = parts.map((p, i) => gzipSync(p, { level: i % 9 }));
    const all = Buffer.concat(members);
    for (const sizes of [[65536], [1], [7, 3000, 13], [1 << 20]]) {
      const { out, error, d } = await decode(all, sizes.length === 1 && sizes[0] === 1 ? [1] : sizes);
      expect(error).toBeNull();
      expect(out.equals(gunzipSync(all))).toBe(true);
      let c = 0;
      let o = 0;
      parts.forEach((p, i) => {
        if (p.length > 0) expect(d.memberAt(o)).toBe(c);
        if (p.length > 1) expect(d.memberAt(o + p.length - 1)).toBe(c);
        c += (members[i] as Buffer).length;
        o += p.length;
      });
    }
  }, 60_000);
  it('reads header fields (name, comment, extra) and ignores zero padding after the last member', async () => {
    const m = gzipSync(Buffer.from('hello'));
    // FEXTRA + FNAME + FCOMMENT spliced into a real member's header.
    const head = Buffer.from(m.subarray(0, 10));
    head[3] = 4 | 8 | 16;
    const fancy = Buffer.concat([head, Buffer.from([3, 0, 1, 2, 3]), Buffer.from('name\0comment\0'), m.subarray(10)]);
    const data = Buffer.concat([fancy, m, Buffer.alloc(5)]);
    const { out, error, d } = await decode(data, [3]);
    expect(error).toBeNull();
    expect(out.toString()).toBe('hellohello');
    expect(d.memberAt(5)).toBe(fancy.length);
  });
  it('fails where gunzip fails, with its messages: truncation, bad checks, garbage after a member', async () => {
    const a = gzipSync(text(50_000));
    const b = gzipSync(Buffer.from('second'));
    const flip = (buf: Buffer, at: number): Buffer => {
      const c = Buffer.from(buf);
      c[at] = (c[at] as number) ^ 1;
      return c;
    };
    // Past one read chunk compressed: it goes through the streaming inflater.
    const wide = gzipSync(Buffer.from(randomBytes(300_000).toString('base64')));
    const flags = Buffer.from(b);
    flags[3] = 0x20;
    const cases = [
      wide.subarray(0, wide.length - 3),
      wide.subarray(0, 100_000),
      flip(wide, 90_000),
      flip(wide, wide.length - 7),
      Buffer.concat([b, flags]),
      a.subarray(0, a.length - 3),
      a.subarray(0, 200),
      a.subarray(0, 5),
      Buffer.concat([a, b.subarray(0, 6)]),
      flip(a, a.length - 6),
      flip(a, a.length - 2),
      Buffer.concat([a, Buffer.from('garbage')]),
      Buffer.concat([a, Buffer.from([0x1f])]),
      flip(a, 2),
    ];
    for (const data of cases) {
      const want = reference(data);
      for (const sizes of [[65536], [100]]) {
        const { error } = await decode(data, sizes);
        expect(want.message).not.toBeNull();
        expect(error?.message).toBe(want.message);
      }
    }
  });
  it('places a cut-short last member at its own start, header cut or body cut', async () => {
    const a = gzipSync(text(2_000));
    const b = gzipSync(text(500));
    for (const keep of [4, 30]) {
      const { out, error, d } = await decode(Buffer.concat([a, b.subarray(0, keep)]), [100]);
      expect(error?.message).toBe('unexpected end of file');
      expect(d.memberAt(out.length)).toBe(a.length);
      expect(d.memberAt(0)).toBe(0);
    }
  });
  it('streams a member too big to inflate in one call, in bounded chunks', async () => {
    const big = Buffer.alloc(40 * 1024 * 1024, 'z');
    const data = Buffer.concat([gzipSync(big), gzipSync(Buffer.from('tail'))]);
    const d = new GzipMemberDecoder();
    let largest = 0;
    let total = 0;
    await new Promise<void>((ok, ko) => {
      d.on('data', (c: Buffer) => {
        largest = Math.max(largest, c.length);
        total += c.length;
      });
      d.on('end', ok);
      d.on('error', ko);
      Readable.from([data]).pipe(d);
    });
    expect(total).toBe(big.length + 4);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
    expect(d.memberAt(big.length)).toBe(data.length - gzipSync(Buffer.from('tail')).length);
  }, 60_000);
});
