// A binary min-heap of (rank, position) pairs in typed arrays, ordered by rank then position.

export class MergeHeap {
  #rank = new Int32Array(64);
  #pos = new Int32Array(64);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  #less(a: number, b: number): boolean {
    const ra = this.#rank[a] as number;
    const rb = this.#rank[b] as number;
    return ra < rb || (ra === rb && (this.#pos[a] as number) < (this.#pos[b] as number));
  }

  #swap(a: number, b: number): void {
    const r = this.#rank[a] as number;
    const p = this.#pos[a] as number;
    this.#rank[a] = this.#rank[b] as number;
    this.#pos[a] = this.#pos[b] as number;
    this.#rank[b] = r;
    this.#pos[b] = p;
  }

  push(rank: number, pos: number): void {
    if (this.size === this.#rank.length) {
      const r = new Int32Array(this.size * 2);
      const p = new Int32Array(this.size * 2);
      r.set(this.#rank);
      p.set(this.#pos);
      this.#rank = r;
      this.#pos = p;
    }
    let i = this.size++;
    this.#rank[i] = rank;
    this.#pos[i] = pos;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  /** Rank of the smallest entry (call only when size > 0). */
  topRank(): number {
    return this.#rank[0] as number;
  }

  /** Removes the smallest entry and returns its position. */
  pop(): number {
    const top = this.#pos[0] as number;
    const last = --this.size;
    if (last > 0) {
      this.#rank[0] = this.#rank[last] as number;
      this.#pos[0] = this.#pos[last] as number;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const c = r < last && this.#less(r, l) ? r : l;
        if (!this.#less(c, i)) break;
        this.#swap(c, i);
        i = c;
      }
    }
    return top;
  }
}
