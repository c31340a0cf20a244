// An open-addressing hash map from pairs of 32-bit ints to ints, several times faster than Map for n-gram counting.

export class PairTable {
  private keyA: Int32Array;
  private keyB: Int32Array;
  private val: Int32Array;
  private mask: number;
  size = 0;

  /** Room for `capacity` entries without growing. */
  constructor(capacity: number) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keyA = new Int32Array(cap);
    this.keyB = new Int32Array(cap);
    this.val = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  private slot(a: number, b: number): number {
    let i = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ (b >>> 15), 0x85ebca6b)) & this.mask;
    while (this.val[i] !== -1 && (this.keyA[i] !== a || this.keyB[i] !== b)) i = (i + 1) & this.mask;
    return i;
  }

  /** The value stored for (a, b), or -1. */
  get(a: number, b: number): number {
    return this.val[this.slot(a, b)] as number;
  }

  /** Store a non-negative value for (a, b), which must not be present yet. */
  set(a: number, b: number, v: number): void {
    const i = this.slot(a, b);
    this.keyA[i] = a;
    this.keyB[i] = b;
    this.val[i] = v;
    this.size++;
  }
}
