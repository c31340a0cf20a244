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
 * rangeDuplicates(text, ranges Int32Array [a0, b0, a1, b1, …], count, out Float64Array) → out[0] = the ranges equal to an
 * earlier one (compared unit by unit; empty ranges are equal), out[1] = their code points in all (text/duplicates.ts's
 * RangeSet loop, in one call).
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
  uint32_t cap = 16;
  while (cap < count * 2) cap *= 2;
  uint16_t *t = malloc((n + 1) * sizeof(uint16_t));
  Slot *slots = malloc(cap * sizeof(Slot));
  if (t == NULL || slots == NULL) {
    free(t);
    free(slots);
    return fail(env, "rangeDuplicates: out of memory");
  }
  size_t copied;
  if (napi_get_value_string_utf16(env, argv[0], (char16_t *)t, n + 1, &copied) != napi_ok || copied != n) {
    free(t);
    free(slots);
    return fail(env, "rangeDuplicates: text");
  }
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
  free(t);
  free(slots);
  out[0] = elements;
  out[1] = chars;
  return NULL;
}
