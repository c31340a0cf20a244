// Population figures from a uniform sample: scaled counts and sums with confidence intervals (finite population).
/**
 * The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9), for a
 * two-sided interval at `level`: z such that P(|Z| <= z) = level.
 */
export function zOf(level: number): number {
  const p = 1 - (1 - level) / 2;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const poly = (k: number[], x: number): number => k.reduce((acc, v) => acc * x + v, 0);
  if (p > 0.97575) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return -poly(c, q) / (poly(d, q) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

/** What every estimate needs: the sample's size n, the population's N, and the interval's z. */
export interface Design {
  n: number;
  N: number;
  z: number;
}

export type Interval = [number, number];

/**
 * Documents of the population in a set, from k of the sample's n: k·N/n, and the Wilson score interval
 * for the proportion with the finite-population correction (n_eff = n / (1 − n/N)), clamped to what the
 * sample proves (at least the k seen; at most N less the n − k seen outside).
 */
export function countEstimate(k: number, d: Design): { value: number; ci: Interval } {
  const { n, N, z } = d;
  if (n === 0) return { value: 0, ci: [0, N] };
  const p = k / n;
  const f = n / N;
  if (f >= 1) return { value: k, ci: [k, k] };
  const m = n / (1 - f);
  const z2 = (z * z) / m;
  const centre = (p + z2 / 2) / (1 + z2);
  const half = (z / (1 + z2)) * Math.sqrt((p * (1 - p)) / m + (z * z) / (4 * m * m));
  const lo = Math.max(k, Math.floor(N * (centre - half)));
  const hi = Math.min(N - (n - k), Math.ceil(N * (centre + half)));
  return { value: Math.round(p * N), ci: [lo, Math.max(lo, hi)] };
}

/**
 * A population sum (tokens, characters) over a set, from the sample's sum y and sum of squares y2 over
 * its k documents in the set: y·N/n ± z·N·√((1 − f)·s²/n), s² the variance of the per-document value
 * over all n sampled documents (0 outside the set). Few documents make the normal interval too narrow
 * (a set the sample barely sees), so the interval also spans the count's interval times the mean per
 * document (of the set, or `fallbackMean` when the sample has none of it); never below the y seen.
 */
export function sumEstimate(y: number, y2: number, k: number, d: Design, fallbackMean: number): { value: number; ci: Interval } {
  const { n, N, z } = d;
  if (n === 0) return { value: 0, ci: [0, 0] };
  const f = n / N;
  if (f >= 1) return { value: y, ci: [y, y] };
  const value = (y * N) / n;
  const s2 = n > 1 ? Math.max(0, (y2 - (y * y) / n) / (n - 1)) : 0;
  const se = N * Math.sqrt(((1 - f) * s2) / n);
  const docs = countEstimate(k, d).ci;
  const mean = k > 0 ? y / k : fallbackMean;
  const lo = Math.max(y, Math.min(value - z * se, docs[0] * mean));
  const hi = Math.max(value + z * se, docs[1] * mean);
  return { value: Math.round(value), ci: [Math.floor(lo), Math.ceil(hi)] };
}

/** A proportion of a sampled group (e.g. a stream's documents) with its Wilson interval, n_eff with the correction. */
export function fractionEstimate(k: number, groupN: number, d: Design): Interval {
  if (groupN === 0) return [0, 1];
  const f = d.n / d.N;
  if (f >= 1) return [k / groupN, k / groupN];
  const m = groupN / (1 - f);
  const p = k / groupN;
  const z2 = (d.z * d.z) / m;
  const centre = (p + z2 / 2) / (1 + z2);
  const half = (d.z / (1 + z2)) * Math.sqrt((p * (1 - p)) / m + (d.z * d.z) / (4 * m * m));
  return [k === 0 ? 0 : Math.max(0, centre - half), k === groupN ? 1 : Math.min(1, centre + half)];
}
