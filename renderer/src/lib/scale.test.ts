import { describe, expect, it } from 'vitest';
import { interpolate, linear, ticks } from './scale.js';

describe('scale', () => {
  it('maps and inverts', () => {
    const x = linear([0, 100], [10, 210]);
    expect(x(50)).toBe(110);
    expect(x.invert(110)).toBe(50);
    expect(linear([5, 5], [0, 10])(5)).toBe(0);
  });

  it('gives round ticks inside the domain', () => {
    expect(ticks(0, 100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(ticks(0.13, 0.91, 4)).toEqual([0.2, 0.4, 0.6, 0.8]);
    expect(ticks(3, 3)).toEqual([3]);
  });

  it('interpolates a sweep curve, clamping at its ends', () => {
    expect(interpolate([0, 10, 20], [0, 0.5, 1], 15)).toBe(0.75);
    expect(interpolate([0, 10], [0.1, 0.2], -5)).toBe(0.1);
    expect(interpolate([0, 10], [0.1, 0.2], 50)).toBe(0.2);
    expect(interpolate([], [], 1)).toBeNull();
  });
});
