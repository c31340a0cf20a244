// gopher_v1's word n-gram statistics in C: dolma/ngrams.ts's `ngramStats`, step for step, in exact integers.
#include "assay.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t pair_hash(int32_t a, int32_t b) {
  uint32_t h = ((uint32_t)a * 0x9e3779b1u) ^ (((uint32_t)b + 0x7f4a7c15u) * 0x85ebca77u);
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  return h ^ (h >> 13);
}

/** Id of the pair (a, b) in `slots` ([a, b, id + 1, unused] per slot), inserted as `fresh` when absent. */
static int32_t intern(int32_t *slots, uint32_t mask, int32_t a, int32_t b, int32_t fresh) {
  for (uint32_t slot = pair_hash(a, b) & mask;; slot = (slot + 1) & mask) {
    int32_t *k = slots + (size_t)slot * 4;
    if (k[2] == 0) {
      k[0] = a;
      k[1] = b;
      k[2] = fresh + 1;
      return fresh;
    }
    if (k[0] == a && k[1] == b) return k[2] - 1;
  }
}

/**
 * Writes [n, mostCommonChars, duplicateChars, totalChars] for each order 2..maxN that has an n-gram into `out`;
 * returns how many orders. Ids of n-grams follow first occurrence, so ties go to the first, as Counter's do.
 */
static int32_t stats(const int32_t *ids, size_t w, const int32_t *lens, size_t nlens, int32_t maxN, double *out, int32_t *scratch, int64_t *sums) {
  int64_t *prefix = sums;
  int64_t *twice = sums + w + 2;
  int32_t *counts_of_word = scratch;
  int32_t *pos = counts_of_word + nlens;
  int32_t *key = pos + w;
  int32_t *counts = key + w;
  int32_t *first = counts + w;
  int32_t *slots = first + w;
  prefix[0] = 0;
  for (size_t i = 0; i < w; i++) prefix[i + 1] = prefix[i] + lens[ids[i]];
  twice[0] = 0;
  for (size_t k = 0; k <= w; k++) twice[k + 1] = twice[k] + prefix[k];
  memset(counts_of_word, 0, nlens * sizeof(int32_t));
  for (size_t i = 0; i < w; i++) counts_of_word[ids[i]]++;
  size_t live = 0;
  for (size_t i = 0; i < w; i++)
    if (counts_of_word[ids[i]] > 1) {
      pos[live] = (int32_t)i;
      key[live++] = ids[i];
    }
  int32_t orders = 0;
  for (int32_t n = 2; n <= maxN; n++) {
    if ((int64_t)w - n + 1 <= 0) break;
    size_t m = w - (size_t)n + 1;
    int64_t total = twice[m + (size_t)n] - twice[n] - twice[m];
    while (live > 0 && (size_t)pos[live - 1] >= m) live--;
    double *o = out + 4 * orders++;
    o[0] = n;
    o[3] = (double)total;
    if (live == 0) {
      // Every n-gram occurs once: the most common is the first, and nothing is duplicated.
      o[1] = (double)prefix[n];
      o[2] = 0;
      continue;
    }
    uint32_t cap = 16;
    while (cap < live * 2) cap *= 2;
    memset(slots, 0, (size_t)cap * 4 * sizeof(int32_t));
    int32_t fresh = 0;
    for (size_t k = 0; k < live; k++) {
      int32_t i = pos[k];
      int32_t id = intern(slots, cap - 1, key[k], ids[i + n - 1], fresh);
      if (id == fresh) {
        first[fresh] = i;
        counts[fresh++] = 0;
      }
      counts[id]++;
      key[k] = id;
    }
    int32_t best = -1, bestCount = 1;
    int64_t dup = 0;
    for (int32_t id = 0; id < fresh; id++) {
      int32_t c = counts[id];
      if (c < 2) continue;
      int32_t at = first[id];
      dup += (int64_t)c * (prefix[at + n] - prefix[at]);
      if (c > bestCount) {
        best = id;
        bestCount = c;
      }
    }
    o[1] = (double)(best == -1 ? prefix[n] : (int64_t)bestCount * (prefix[first[best] + n] - prefix[first[best]]));
    o[2] = (double)dup;
    size_t kept = 0;
    for (size_t k = 0; k < live; k++)
      if (counts[key[k]] > 1) {
        pos[kept] = pos[k];
        key[kept++] = key[k];
      }
    live = kept;
  }
  return orders;
}

int32_t ngram_stats(const int32_t *ids, size_t w, const int32_t *lens, size_t nlens, int32_t maxN, double *out) {
  // Scratch per call (threads may call at once): word counts, 4 per-position arrays, the table (≤ 4 · 2 · w + 64 ints).
  size_t cap = 16;
  while (cap < w * 2) cap *= 2;
  int32_t *scratch = malloc((nlens + 4 * w + cap * 4 + 1) * sizeof(int32_t));
  int64_t *sums = malloc((2 * w + 4) * sizeof(int64_t));
  int32_t orders = -1;
  if (scratch != NULL && sums != NULL) orders = stats(ids, w, lens, nlens, maxN, out, scratch, sums);
  free(scratch);
  free(sums);
  return orders;
}

/** ngramStats(wordIds Int32Array, wordLen Int32Array, maxN, out Float64Array of 4 · (maxN − 1)) → orders written. */
napi_value gopher_ngram_stats(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t *ids, *lens, maxN;
  double *out;
  size_t w, nlens, nout;
  if (argc < 4 || !typed(env, argv[0], napi_int32_array, (void **)&ids, &w)) return fail(env, "ngramStats: word ids");
  if (!typed(env, argv[1], napi_int32_array, (void **)&lens, &nlens)) return fail(env, "ngramStats: word lengths");
  if (napi_get_value_int32(env, argv[2], &maxN) != napi_ok || maxN < 2 || maxN > 64) return fail(env, "ngramStats: maxN");
  if (!typed(env, argv[3], napi_float64_array, (void **)&out, &nout) || nout < 4 * (size_t)(maxN - 1)) return fail(env, "ngramStats: out");
  for (size_t i = 0; i < w; i++)
    if (ids[i] < 0 || (size_t)ids[i] >= nlens || lens[ids[i]] < 0) return fail(env, "ngramStats: a word id is outside the lengths");
  int32_t orders = ngram_stats(ids, w, lens, nlens, maxN, out);
  if (orders < 0) return fail(env, "ngramStats: out of memory");
  napi_value r;
  CHECK(napi_create_int32(env, orders, &r));
  return r;
}
