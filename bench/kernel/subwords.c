// C port of subwordRows (workers/engine/tag/taggers/fasttext/js-predict.ts) for bench/kernel: the same loop as
// native code. Reads the data file bench/kernel/run.ts writes, times `rounds` passes, prints one JSON line.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int32_t *slots, *bits;
static uint32_t mask, buckets, minn, maxn;
static int32_t nwords;

static inline int32_t pruned(uint32_t key) {
  if (!((uint32_t)bits[key >> 5] & (1u << (key & 31)))) return -1;
  for (uint32_t i = (key * 0x9e3779b1u) & mask;; i = (i + 1) & mask) {
    if (slots[2 * i] == (int32_t)key) return slots[2 * i + 1];
    if (slots[2 * i] == -1) return -1;
  }
}

static uint32_t subword_rows(const uint8_t *w, uint32_t len, int32_t *found) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < len; i++) {
    if ((w[i] & 0xc0) == 0x80) continue;
    uint32_t h = 2166136261u, j = i;
    for (uint32_t n = 1; j < len && n <= maxn; n++) {
      do h = (h ^ (uint32_t)(int32_t)(int8_t)w[j++]) * 16777619u;
      while (j < len && (w[j] & 0xc0) == 0x80);
      if (n >= minn && !(n == 1 && (i == 0 || j == len))) {
        int32_t id = pruned(h % buckets);
        if (id >= 0) found[count++] = nwords + id;
      }
    }
  }
  return count;
}

static uint32_t read_u32(FILE *f) {
  uint32_t v;
  if (fread(&v, 4, 1, f) != 1) exit(2);
  return v;
}

static void *read_block(FILE *f, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL || fread(p, 1, bytes, f) != bytes) exit(2);
  return p;
}

int main(int argc, char **argv) {
  if (argc < 3) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (f == NULL) return 2;
  int rounds = atoi(argv[2]);
  // Layout (little-endian u32s): mask, buckets, minn, maxn, nwords, slot ints, bit ints, tokens, text bytes; then
  // slots, bits, token ends, text.
  mask = read_u32(f), buckets = read_u32(f), minn = read_u32(f), maxn = read_u32(f), nwords = (int32_t)read_u32(f);
  uint32_t nslots = read_u32(f), nbits = read_u32(f), tokens = read_u32(f), bytes = read_u32(f);
  slots = read_block(f, (size_t)nslots * 4);
  bits = read_block(f, (size_t)nbits * 4);
  uint32_t *ends = read_block(f, (size_t)tokens * 4);
  uint8_t *text = read_block(f, bytes);
  fclose(f);
  uint8_t *w = malloc(bytes + 2);
  int32_t *found = malloc(((size_t)bytes + 2) * (maxn + 1) * 4);
  double best = 1e300, sum = 0;
  uint64_t rows = 0;
  for (int r = 0; r < rounds; r++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sum = 0, rows = 0;
    uint32_t start = 0;
    for (uint32_t t = 0; t < tokens; t++) {
      uint32_t end = ends[t], len = end - start + 2;
      w[0] = 0x3c;
      memcpy(w + 1, text + start, end - start);
      w[len - 1] = 0x3e;
      uint32_t n = subword_rows(w, len, found);
      for (uint32_t k = 0; k < n; k++) sum += found[k];
      rows += n;
      start = end;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    if (ms < best) best = ms;
  }
  printf("{\"ms\":%.3f,\"rows\":%llu,\"sum\":%.0f}\n", best, (unsigned long long)rows, sum);
  return 0;
}
