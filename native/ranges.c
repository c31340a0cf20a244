// Gopher's `find_duplicates` over ranges of one text (lines, paragraphs): which repeat an earlier one, by their units.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint32_t hash;
  int32_t a; // -1: empty slot
  int32_t b;
} Slot;

/**
 * find_duplicates over `count` ranges [a0, b0, a1, b1, …] of t: out[0] = the ranges equal to an earlier one (compared
 * unit by unit; empty ranges are equal), out[1] = their code points in all. 0, or -1 when out of memory.
 */
int range_dups(const uint16_t *t, const int32_t *ranges, uint32_t count, double *out) {
  uint32_t cap = 16;
  while (cap < count * 2) cap *= 2;
  Slot *slots = malloc(cap * sizeof(Slot));
  if (slots == NULL) return -1;
  for (uint32_t i = 0; i < cap; i++) slots[i].a = -1;
  const uint32_t mask = cap - 1;
  double elements = 0, chars = 0;
  for (uint32_t k = 0; k < count; k++) {
    const int32_t a = ranges[2 * k], b = ranges[2 * k + 1];
    uint32_t h = (uint32_t)(b - a);
    for (int32_t i = a; i < b; i++) h = h * 0x01000193u + t[i];
    uint32_t s = ((h ^ (h >> 16)) * 0x85ebca6bu) & mask;
    int dup = 0;
    for (; slots[s].a != -1; s = (s + 1) & mask) {
      const Slot *e = &slots[s];
      if (e->hash == h && e->b - e->a == b - a && memcmp(t + e->a, t + a, (size_t)(b - a) * sizeof(uint16_t)) == 0) {
        dup = 1;
        break;
      }
    }
    if (dup) {
      elements++;
      chars += cp_len(t, a, b);
    } else {
      slots[s].hash = h;
      slots[s].a = a;
      slots[s].b = b;
    }
  }
  free(slots);
  out[0] = elements;
  out[1] = chars;
  return 0;
}

/**
 * rangeDuplicates(text, ranges Int32Array [a0, b0, a1, b1, …], count, out Float64Array) → `range_dups` of the ranges
 * (text/duplicates.ts's RangeSet loop, in one call).
 */
napi_value range_duplicates(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t n, nr, nout;
  int32_t *ranges;
  double *out;
  uint32_t count;
  if (argc < 4 || napi_get_value_string_utf16(env, argv[0], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "rangeDuplicates: text");
  if (!typed(env, argv[1], napi_int32_array, (void **)&ranges, &nr)) return fail(env, "rangeDuplicates: ranges");
  if (napi_get_value_uint32(env, argv[2], &count) != napi_ok || (size_t)count * 2 > nr) return fail(env, "rangeDuplicates: count");
  if (!typed(env, argv[3], napi_float64_array, (void **)&out, &nout) || nout < 2) return fail(env, "rangeDuplicates: out");
  if (count > 0x20000000) return fail(env, "rangeDuplicates: too many ranges");
  for (uint32_t k = 0; k < count; k++)
    if (ranges[2 * k] < 0 || ranges[2 * k] > ranges[2 * k + 1] || (size_t)ranges[2 * k + 1] > n) return fail(env, "rangeDuplicates: a range is outside the text");
  uint16_t *t = utf16_copy(env, argv[0], n);
  if (t == NULL) return fail(env, "rangeDuplicates: text (or out of memory)");
  int r = range_dups(t, ranges, count, out);
  free(t);
  return r < 0 ? fail(env, "rangeDuplicates: out of memory") : NULL;
}

/**
 * gopher-repetition.ts's duplicatePieces: `re.split(r"\n{minRun,}", t[a:b])`'s pieces as ranges into `ranges` (room for
 * b - a + 1 pairs); their number. A run of "\n" shorter than minRun stays inside its piece; leading and trailing runs
 * cut off empty pieces, as split does.
 */
static uint32_t pieces(const uint16_t *t, int32_t a, int32_t b, int32_t minRun, int32_t *ranges) {
  uint32_t count = 0;
  for (int32_t s = a, i = a;;) {
    int32_t j = i;
    while (j < b && t[j] != '\n') j++;
    int32_t r = j;
    while (r < b && t[r] == '\n') r++;
    if (j < b && r - j < minRun) {
      i = r;
      continue;
    }
    ranges[2 * count] = s;
    ranges[2 * count + 1] = j;
    count++;
    if (j == b) return count;
    s = i = r;
  }
}

/**
 * repetitionDuplicates(text, a, b, lines Int32Array | null, out Float64Array(6)) → gopher_repetition's two
 * find_duplicates: out = [paragraphs, duplicated ones, their code points, lines, duplicated ones, their code points].
 * Paragraphs are t[a:b] split on "\n{2,}" (a, b: the text stripped); lines are splitlineOffsets' triples when given
 * (v0.2.0's splitlines), else the text split on "\n+" (HEAD).
 */
napi_value repetition_duplicates(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t n, nlines = 0, nout;
  int32_t a, b, *lines = NULL;
  double *out;
  napi_valuetype kind;
  if (argc < 5 || napi_get_value_string_utf16(env, argv[0], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "repetitionDuplicates: text");
  if (napi_get_value_int32(env, argv[1], &a) != napi_ok || napi_get_value_int32(env, argv[2], &b) != napi_ok || a < 0 || a > b || (size_t)b > n)
    return fail(env, "repetitionDuplicates: range");
  CHECK(napi_typeof(env, argv[3], &kind));
  if (kind != napi_null && (!typed(env, argv[3], napi_int32_array, (void **)&lines, &nlines) || nlines % 3 != 0)) return fail(env, "repetitionDuplicates: lines");
  for (size_t k = 0; k < nlines; k += 3)
    if (lines[k] < 0 || lines[k] > lines[k + 1] || (size_t)lines[k + 1] > n) return fail(env, "repetitionDuplicates: line offsets");
  if (!typed(env, argv[4], napi_float64_array, (void **)&out, &nout) || nout < 6) return fail(env, "repetitionDuplicates: out");
  uint16_t *t = utf16_copy(env, argv[0], n);
  int32_t *ranges = malloc((2 * n + 2 + nlines) * sizeof(int32_t));
  if (t == NULL || ranges == NULL) {
    free(t);
    free(ranges);
    return fail(env, "repetitionDuplicates: text (or out of memory)");
  }
  uint32_t paras = pieces(t, a, b, 2, ranges);
  int r = range_dups(t, ranges, paras, out + 1);
  uint32_t count = 0;
  // By the argument, not the pointer: an empty typed array may have no data pointer.
  if (kind == napi_null) count = pieces(t, 0, (int32_t)n, 1, ranges);
  else
    for (size_t k = 0; k < nlines; k += 3, count++) {
      ranges[2 * count] = lines[k];
      ranges[2 * count + 1] = lines[k + 1];
    }
  if (r == 0) r = range_dups(t, ranges, count, out + 4);
  free(t);
  free(ranges);
  out[0] = paras;
  out[3] = count;
  return r < 0 ? fail(env, "repetitionDuplicates: out of memory") : NULL;
}
