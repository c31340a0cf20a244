// Page arithmetic for the virtualised document table: which pages a row range needs, which to evict.

/** Page indexes covering rows [first, last] (inclusive), clamped to the row count when it is known. */
export function pagesFor(first: number, last: number, pageSize: number, total: number | null): number[] {
  const hi = total === null ? last : Math.min(last, total - 1);
  if (hi < first || hi < 0) return [];
  const out: number[] = [];
  for (let p = Math.floor(Math.max(0, first) / pageSize); p <= Math.floor(hi / pageSize); p++) out.push(p);
  return out;
}

/** Cached pages to drop so at most `keep` remain, farthest from the pages in view first. */
export function pagesToEvict(cached: readonly number[], inView: readonly number[], keep: number): number[] {
  if (cached.length <= keep) return [];
  const centre = inView.length > 0 ? ((inView[0] as number) + (inView[inView.length - 1] as number)) / 2 : 0;
  const far = [...cached].filter((p) => !inView.includes(p)).sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
  return far.slice(0, cached.length - keep);
}
