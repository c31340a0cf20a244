// Union-find over global document indices whose root is always the smallest index (the first document in file order).

export class UnionFind {
  readonly parent: Uint32Array;
  /** Cluster size, meaningful at roots only. */
  readonly size: Uint32Array;

  constructor(n: number) {
    this.parent = new Uint32Array(n);
    this.size = new Uint32Array(n).fill(1);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  find(x: number): number {
    const p = this.parent;
    let r = x;
    while ((p[r] as number) !== r) r = p[r] as number;
    // Path compression, iterative so million-long chains cannot overflow the stack.
    while ((p[x] as number) !== r) {
      const next = p[x] as number;
      p[x] = r;
      x = next;
    }
    return r;
  }

  /**
   * Merges the clusters of `a` and `b`; returns whether they were separate. The smaller root wins, so the
   * kept document (the root) does not depend on the order buckets or pairs are processed in. DataTrove
   * unions by size with a first-element tie-break instead, which makes its kept document order-dependent.
   */
  union(a: number, b: number): boolean {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return false;
    if (rb < ra) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra] = (this.size[ra] as number) + (this.size[rb] as number);
    return true;
  }
}
