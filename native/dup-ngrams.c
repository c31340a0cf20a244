// Gopher repetition's n-gram rules in C: `find_all_duplicate` (dup-ngrams.ts) and `find_top_duplicate` (ngrams.ts).
//
// The same walk as the JavaScript: windows of n words joined with no separator, a repeat adding its code points and
// skipping n words; a window of at least RUN characters whose first or last RUN characters occur at no other word
// boundary is unique in the document, so it is neither looked up nor stored (that changes nothing). Hashes only
// choose where to look: every hit is confirmed character by character, so the result is exact.
#include "assay.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUN 16
#define B 0x100000001b3ull

typedef struct {
  const uint16_t *chars;
  const int32_t *starts;
  const int64_t *cps;
  const uint64_t *H;
  const uint64_t *P;
  size_t count, total;
  const uint8_t *startSeen, *endSeen;
  /* Per slot: the window's hash and 1 + its first word (0 = empty). */
  uint64_t *keys;
  int32_t *pos;
  size_t mask;
} Doc;

static uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 29);
}

static uint64_t window(const Doc *d, size_t s, size_t e) { return d->H[e] - d->H[s] * d->P[e - s]; }

static int same_chars(const Doc *d, size_t j, size_t s, size_t e, size_t n) {
  size_t a = (size_t)d->starts[j];
  return (size_t)d->starts[j + n] - a == e - s && memcmp(d->chars + a, d->chars + s, (e - s) * sizeof(uint16_t)) == 0;
}

static int64_t walk(Doc *d, size_t n) {
  memset(d->pos, 0, (d->mask + 1) * sizeof(int32_t));
  int64_t repeated = 0;
  size_t idx = 0;
  while (idx + n <= d->count) {
    size_t s = (size_t)d->starts[idx], e = (size_t)d->starts[idx + n];
    if (e - s >= RUN && (!d->startSeen[idx] || !d->endSeen[idx + n])) {
      idx++;
      continue;
    }
    uint64_t h = window(d, s, e);
    size_t slot = mix64(h) & d->mask;
    int dup = 0;
    for (; d->pos[slot] != 0; slot = (slot + 1) & d->mask)
      if (d->keys[slot] == h && same_chars(d, (size_t)d->pos[slot] - 1, s, e, n)) {
        dup = 1;
        break;
      }
    if (dup) {
      repeated += d->cps[idx + n] - d->cps[idx];
      idx += n;
    } else {
      d->keys[slot] = h;
      d->pos[slot] = (int32_t)idx + 1;
      idx++;
    }
  }
  return repeated;
}

/** seen[i] = 1 when the RUN characters starting (side 0) or ending (side 1) at boundary i may occur at another. */
static void mark_runs(const Doc *d, int side, uint8_t *seen, uint8_t *counts, size_t size, int32_t *slots) {
  memset(counts, 0, size);
  for (size_t i = 0; i <= d->count; i++) {
    int64_t b = d->starts[i];
    int64_t s = side == 0 ? b : b - RUN;
    if (s < 0 || (size_t)s + RUN > d->total) {
      slots[i] = -1;
      continue;
    }
    size_t slot = mix64(window(d, (size_t)s, (size_t)s + RUN)) & (size - 1);
    slots[i] = (int32_t)slot;
    if (counts[slot] < 2) counts[slot]++;
  }
  for (size_t i = 0; i <= d->count; i++) seen[i] = slots[i] >= 0 && counts[slots[i]] >= 2;
}

/**
 * allDuplicateChars(chars Uint16Array, starts Int32Array, ids Int32Array, cpLens Int32Array, count, ns Int32Array,
 * out Float64Array) → writes each n's repeated code points into out.
 */
napi_value gopher_all_duplicate(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint16_t *chars;
  int32_t *starts, *ids, *cpLens, *ns;
  double *out;
  uint32_t count;
  size_t total, nstarts, nids, nlens, nns, nout;
  if (argc < 7 || !typed(env, argv[0], napi_uint16_array, (void **)&chars, &total)) return fail(env, "allDuplicateChars: chars");
  if (!typed(env, argv[1], napi_int32_array, (void **)&starts, &nstarts)) return fail(env, "allDuplicateChars: starts");
  if (!typed(env, argv[2], napi_int32_array, (void **)&ids, &nids)) return fail(env, "allDuplicateChars: ids");
  if (!typed(env, argv[3], napi_int32_array, (void **)&cpLens, &nlens)) return fail(env, "allDuplicateChars: code point lengths");
  if (napi_get_value_uint32(env, argv[4], &count) != napi_ok || nstarts < (size_t)count + 1 || nids < count) return fail(env, "allDuplicateChars: count");
  if (!typed(env, argv[5], napi_int32_array, (void **)&ns, &nns)) return fail(env, "allDuplicateChars: ns");
  if (!typed(env, argv[6], napi_float64_array, (void **)&out, &nout) || nout < nns) return fail(env, "allDuplicateChars: out");
  for (size_t k = 0; k < nns; k++)
    if (ns[k] < 1) return fail(env, "allDuplicateChars: an n below 1");
  if (starts[0] < 0 || (size_t)starts[count] > total) return fail(env, "allDuplicateChars: a word is outside chars");
  for (size_t i = 0; i < count; i++)
    if (starts[i] > starts[i + 1] || ids[i] < 0 || (size_t)ids[i] >= nlens) return fail(env, "allDuplicateChars: a word is outside chars or lengths");
  size_t cap = 1024;
  while (cap < 2 * (size_t)count) cap *= 2;
  size_t size = 8192;
  while (size < 8 * ((size_t)count + 1)) size *= 2;
  size_t longest = total > RUN ? total : RUN;
  // Scratch per call (threads may call at once).
  uint64_t *H = malloc((total + 1) * sizeof(uint64_t));
  uint64_t *P = malloc((longest + 1) * sizeof(uint64_t));
  int64_t *cps = malloc(((size_t)count + 1) * sizeof(int64_t));
  uint8_t *seen = malloc(2 * ((size_t)count + 1) + size);
  int32_t *slots = malloc(((size_t)count + 1) * sizeof(int32_t));
  uint64_t *keys = malloc(cap * sizeof(uint64_t));
  int32_t *pos = malloc(cap * sizeof(int32_t));
  napi_value result = NULL;
  if (H == NULL || P == NULL || cps == NULL || seen == NULL || slots == NULL || keys == NULL || pos == NULL) {
    fail(env, "allDuplicateChars: out of memory");
    goto done;
  }
  H[0] = 0;
  for (size_t c = 0; c < total; c++) H[c + 1] = H[c] * B + chars[c];
  P[0] = 1;
  for (size_t k = 1; k <= longest; k++) P[k] = P[k - 1] * B;
  cps[0] = 0;
  for (size_t i = 0; i < count; i++) cps[i + 1] = cps[i] + cpLens[ids[i]];
  Doc d = {chars, starts, cps, H, P, count, total, seen, seen + count + 1, keys, pos, cap - 1};
  mark_runs(&d, 0, seen, seen + 2 * ((size_t)count + 1), size, slots);
  mark_runs(&d, 1, seen + count + 1, seen + 2 * ((size_t)count + 1), size, slots);
  for (size_t k = 0; k < nns; k++) out[k] = (double)walk(&d, (size_t)ns[k]);
  napi_get_undefined(env, &result);
done:
  free(H);
  free(P);
  free(cps);
  free(seen);
  free(slots);
  free(keys);
  free(pos);
  return result;
}

/** Id of the pair (a, b) in `slots` ([a, b, id + 1] per slot); when absent, stores `*size` and returns -1. */
static int32_t get_or_add(int32_t *slots, size_t mask, int32_t a, int32_t b, int32_t *size) {
  uint32_t h = (uint32_t)a * 0x9e3779b1u + (uint32_t)b;
  h = (h ^ (h >> 15)) * 0x85ebca6bu;
  for (size_t i = (h ^ (h >> 13)) & mask;; i = (i + 1) & mask) {
    int32_t *s = slots + 3 * i;
    if (s[2] == 0) {
      s[0] = a;
      s[1] = b;
      s[2] = ++*size;
      return -1;
    }
    if (s[0] == a && s[1] == b) return s[2] - 1;
  }
}

/**
 * topNgramChars(ids Int32Array, count, cpLens Int32Array, ns Int32Array, out Float64Array): datatrove/ngrams.ts's walk
 * (n-grams numbered level by level from repeated (n-1)-grams, first seen winning ties); out[k] is the value for
 * ns[k], NaN where there is no n-gram.
 */
napi_value gopher_top_ngrams(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t *ids, *cpLens, *ns;
  double *out;
  uint32_t total;
  size_t nids, vocab, nns, nout;
  if (argc < 5 || !typed(env, argv[0], napi_int32_array, (void **)&ids, &nids)) return fail(env, "topNgramChars: ids");
  if (napi_get_value_uint32(env, argv[1], &total) != napi_ok || total > nids) return fail(env, "topNgramChars: count");
  if (!typed(env, argv[2], napi_int32_array, (void **)&cpLens, &vocab)) return fail(env, "topNgramChars: code point lengths");
  if (!typed(env, argv[3], napi_int32_array, (void **)&ns, &nns)) return fail(env, "topNgramChars: ns");
  if (!typed(env, argv[4], napi_float64_array, (void **)&out, &nout) || nout < nns) return fail(env, "topNgramChars: out");
  int32_t maxN = 0;
  for (size_t k = 0; k < nns; k++) {
    if (ns[k] < 1) return fail(env, "topNgramChars: an n below 1");
    if (ns[k] > maxN) maxN = ns[k];
  }
  for (size_t i = 0; i < total; i++)
    if (ids[i] < 0 || (size_t)ids[i] >= vocab) return fail(env, "topNgramChars: a word id is outside the lengths");
  size_t cap = 16;
  while (cap < 2 * (size_t)total) cap *= 2;
  int32_t *words = calloc(vocab + 1, sizeof(int32_t));
  int32_t *prev = malloc(((size_t)total + 1) * sizeof(int32_t));
  int32_t *cur = malloc(((size_t)total + 1) * sizeof(int32_t));
  int32_t *counts = malloc(((size_t)total + 1) * sizeof(int32_t));
  int32_t *first = malloc(((size_t)total + 1) * sizeof(int32_t));
  int32_t *slots = malloc(3 * cap * sizeof(int32_t));
  napi_value result = NULL;
  if (words == NULL || prev == NULL || cur == NULL || counts == NULL || first == NULL || slots == NULL) {
    fail(env, "topNgramChars: out of memory");
    goto done;
  }
  for (size_t k = 0; k < nns; k++) out[k] = NAN;
  for (size_t i = 0; i < total; i++) words[ids[i]]++;
  if (total > 0) {
    // The most common word's characters × its count (ids are in first-seen order: the lowest id wins ties).
    size_t best = 0;
    for (size_t id = 1; id < vocab; id++)
      if (words[id] > words[best]) best = id;
    for (size_t k = 0; k < nns; k++)
      if (ns[k] == 1) out[k] = (double)cpLens[best] * words[best];
  }
  for (size_t i = 0; i < total; i++) prev[i] = words[ids[i]] > 1 ? ids[i] : -1;
  for (int32_t n = 2; n <= maxN; n++) {
    size_t count = total >= (uint32_t)n ? total - (size_t)n + 1 : 0;
    // An n-gram repeats only if both its (n-1)-grams do: the others are unique and stay unnumbered.
    size_t repeated = 0;
    for (size_t i = 0; i < count; i++) {
      if (prev[i + 1] == -1) prev[i] = -1;
      else if (prev[i] != -1) repeated++;
    }
    size_t c = 16;
    while (c < repeated * 2) c *= 2;
    memset(slots, 0, 3 * c * sizeof(int32_t));
    int32_t size = 0;
    for (size_t i = 0; i < count; i++) {
      int32_t a = prev[i];
      if (a == -1) {
        cur[i] = -1;
        continue;
      }
      int32_t id = get_or_add(slots, c - 1, a, ids[i + (size_t)n - 1], &size);
      if (id < 0) {
        id = size - 1;
        first[id] = (int32_t)i;
        counts[id] = 0;
      }
      counts[id]++;
      cur[i] = id;
    }
    int32_t at = 0, best = 1;
    for (int32_t id = 0; id < size; id++)
      if (counts[id] > best) {
        best = counts[id];
        at = first[id];
      }
    if (count > 0) {
      // Code points of the n words joined with single spaces.
      int64_t len = n - 1;
      for (int32_t k = 0; k < n; k++) len += cpLens[ids[at + k]];
      for (size_t k = 0; k < nns; k++)
        if (ns[k] == n) out[k] = (double)(len * best);
    }
    for (size_t i = 0; i < count; i++)
      if (cur[i] != -1 && counts[cur[i]] == 1) cur[i] = -1;
    int32_t *t = prev;
    prev = cur;
    cur = t;
  }
  napi_get_undefined(env, &result);
done:
  free(words);
  free(prev);
  free(cur);
  free(counts);
  free(first);
  free(slots);
  return result;
}
