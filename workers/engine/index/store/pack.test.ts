// Packed column blobs round-trip every array exactly (zstd-compressed, alignment restored on read).
import { describe, expect, it } from 'vitest';
import { pack, unpack } from './pack.js';

describe('pack / unpack', () => {
  it('round-trips typed arrays of every kind, including empty ones and odd lengths', () => {
    const arrays = {
      a: Uint8Array.from([1, 2, 3]),
      b: Uint32Array.from([0, 4294967295, 7]),
      c: Float64Array.from([-0, 0.1, Number.MAX_VALUE, -Infinity]),
      d: Int32Array.from([-5]),
      e: new Uint32Array(0),
    };
    const u = unpack(pack(arrays));
    expect([...u.u8('a')]).toEqual([1, 2, 3]);
    expect([...u.u32('b')]).toEqual([0, 4294967295, 7]);
    expect(Object.is(u.f64('c')[0], -0)).toBe(true);
    expect([...u.f64('c')].slice(1)).toEqual([0.1, Number.MAX_VALUE, -Infinity]);
    expect([...u.i32('d')]).toEqual([-5]);
    expect(u.u32('e').length).toBe(0);
    expect(u.has('zz')).toBe(false);
    expect(() => u.f64('a')).toThrow(/no f64 array 'a'/);
  });

  it('unpacks from a Buffer slice whose offset is not 8-aligned', () => {
    const blob = pack({ x: Float64Array.from([1.5, 2.5]) });
    const shifted = Buffer.alloc(blob.length + 3);
    blob.copy(shifted, 3);
    expect([...unpack(shifted.subarray(3)).f64('x')]).toEqual([1.5, 2.5]);
  });

  it('delta-codes the u32 arrays it is asked to: any sequence round-trips, ascending ordinals all but vanish', () => {
    const odd = Uint32Array.from([5, 0, 4294967295, 7, 7, 1]);
    expect([...unpack(pack({ a: odd, b: odd }, ['a'])).u32('a')]).toEqual([...odd]);
    const ords = Uint32Array.from({ length: 50_000 }, (_, i) => i * 2);
    const plain = pack({ ords });
    const delta = pack({ ords }, ['ords']);
    expect([...unpack(delta).u32('ords')]).toEqual([...ords]);
    expect(delta.length * 20).toBeLessThan(plain.length);
    expect(() => pack({ x: Float64Array.from([1]) }, ['x'])).toThrow(/delta encoding is for u32 arrays, not 'x'/);
  });
});
