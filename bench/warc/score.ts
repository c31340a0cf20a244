// Bag-of-words agreement of an extraction with the truth: tokens are lowercased runs of letters and digits, counted with multiplicity.
const TOKEN = /[\p{L}\p{N}_]+/gu;

export function bag(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of text.toLowerCase().match(TOKEN) ?? []) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Token counts for micro-averaged scores: summed over pages, then divided once. */
export interface Overlap { extracted: number; truth: number; common: number }

export function overlap(extracted: string, truth: string): Overlap {
  const e = bag(extracted);
  const t = bag(truth);
  let ne = 0;
  let nt = 0;
  let common = 0;
  for (const [w, c] of e) {
    ne += c;
    common += Math.min(c, t.get(w) ?? 0);
  }
  for (const c of t.values()) nt += c;
  return { extracted: ne, truth: nt, common };
}

export function add(a: Overlap, b: Overlap): Overlap {
  return { extracted: a.extracted + b.extracted, truth: a.truth + b.truth, common: a.common + b.common };
}

export function prf(o: Overlap): { p: number; r: number; f1: number } {
  const p = o.extracted ? o.common / o.extracted : 0;
  const r = o.truth ? o.common / o.truth : 0;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0 };
}
