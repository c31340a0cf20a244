// Linear scales and axis ticks for the SVG histogram.

export interface LinearScale {
  (v: number): number;
  invert(px: number): number;
}

export function linear(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  const f = ((v: number) => r0 + ((v - d0) / span) * (r1 - r0)) as LinearScale;
  f.invert = (px: number) => d0 + ((px - r0) / (r1 - r0 || 1)) * span;
  return f;
}

/** About `n` round tick values within [min, max]. */
export function ticks(min: number, max: number, n = 5): number[] {
  if (!(max > min)) return [min];
  const raw = (max - min) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  const step = (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** Linear interpolation of y at x over ascending xs (clamped at the ends). */
export function interpolate(xs: readonly number[], ys: readonly number[], x: number): number | null {
  if (xs.length === 0 || xs.length !== ys.length) return null;
  if (x <= (xs[0] as number)) return ys[0] as number;
  for (let i = 1; i < xs.length; i++) {
    const x1 = xs[i] as number;
    if (x <= x1) {
      const x0 = xs[i - 1] as number;
      const y0 = ys[i - 1] as number;
      const y1 = ys[i] as number;
      return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return ys[ys.length - 1] as number;
}
