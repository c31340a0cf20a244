// One string ↔ code table for every string column and recipe literal, so string equality is a code comparison.

export class Interner {
  private readonly codes = new Map<string, number>();
  readonly strings: string[] = [];

  code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.strings.length;
      this.codes.set(s, c);
      this.strings.push(s);
    }
    return c;
  }

  /** The code if the string was ever seen, else -1 (never equal to any stored string). */
  peek(s: string): number {
    return this.codes.get(s) ?? -1;
  }
}
