// AssemblyScript port of subwordRows (workers/engine/tag/taggers/fasttext/js-predict.ts) for bench/kernel: the same
// loop compiled to WebAssembly. Not TypeScript (u8, load<T>): typecheck and lint skip this file; bench/kernel/run.ts
// compiles it with asc.

// The pruned dictionary's table (BucketTable.layout), placed in linear memory by the caller.
let slots: usize = 0;
let mask: u32 = 0;
let bits: usize = 0;
let nwords: i32 = 0;
let buckets: u32 = 0;
let minn: u32 = 0;
let maxn: u32 = 0;

export function setModel(slotsAt: usize, slotMask: u32, bitsAt: usize, words: i32, nb: u32, min: u32, max: u32): void {
  slots = slotsAt;
  mask = slotMask;
  bits = bitsAt;
  nwords = words;
  buckets = nb;
  minn = min;
  maxn = max;
}

function pruned(key: u32): i32 {
  if ((load<u32>(bits + ((key >>> 5) << 2)) & (1 << (key & 31))) == 0) return -1;
  let i: u32 = (key * 0x9e3779b1) & mask;
  while (true) {
    const k = load<i32>(slots + ((<usize>i) << 3));
    if (k == <i32>key) return load<i32>(slots + ((<usize>i) << 3) + 4);
    if (k == -1) return -1;
    i = (i + 1) & mask;
  }
}

// subwordRows on w[0, len): rows written from found on; returns how many.
function subwordRows(w: usize, len: u32, found: usize): u32 {
  let count: u32 = 0;
  for (let i: u32 = 0; i < len; i++) {
    if ((load<u8>(w + i) & 0xc0) == 0x80) continue;
    let h: u32 = 2166136261;
    let j = i;
    for (let n: u32 = 1; j < len && n <= maxn; n++) {
      do {
        h = (h ^ <u32>load<i8>(w + j)) * 16777619;
        j++;
      } while (j < len && (load<u8>(w + j) & 0xc0) == 0x80);
      if (n >= minn && !(n == 1 && (i == 0 || j == len))) {
        const id = pruned(h % buckets);
        if (id >= 0) store<i32>(found + ((<usize>count) << 2), nwords + id);
        if (id >= 0) count++;
      }
    }
  }
  return count;
}

// Every token of the list (UTF-8 bytes at text, token t at [ends[t-1], ends[t])): `<token>` built in scratch, its
// rows found. Returns the rows' count; their ids' sum goes to the f64 at sumAt (the bench's check).
export function allTokens(text: usize, ends: usize, tokens: u32, scratch: usize, found: usize, sumAt: usize): u32 {
  let rows: u32 = 0;
  let sum: f64 = 0;
  let start: u32 = 0;
  for (let t: u32 = 0; t < tokens; t++) {
    const end = load<u32>(ends + ((<usize>t) << 2));
    const len = end - start + 2;
    store<u8>(scratch, 0x3c);
    memory.copy(scratch + 1, text + start, end - start);
    store<u8>(scratch + len - 1, 0x3e);
    const n = subwordRows(scratch, len, found);
    for (let k: u32 = 0; k < n; k++) sum += <f64>load<i32>(found + ((<usize>k) << 2));
    rows += n;
    start = end;
  }
  store<f64>(sumAt, sum);
  return rows;
}
