// c4_v2's per-line checks and bad-phrase search in C: dolma/c4.ts's c4V2Spans loop and phrases.ts's test, step for step.
//
// Like pii.c, this saves mostly compilation: the loops are short, but optimizing them was a large share of a fresh
// Dolma pass. The flags and the bad words stay in JavaScript.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

/** c4.ts's endsWithPunctuation on the stripped line t[start, last): . ? ! or ". */
static int ends_with_punctuation(const uint16_t *t, int32_t start, int32_t last) {
  uint16_t c = last > start ? t[last - 1] : 0;
  return c == '.' || c == '?' || c == '!' || c == '"';
}

/** c4.ts's tooFewWords: fewer than 3 whitespace-separated words in t[start, last). */
static int too_few_words(const uint16_t *t, int32_t start, int32_t last) {
  int words = 0, in = 0;
  for (int32_t i = start; i < last && words < 3; i++) {
    int ws = is_py_ws(t[i]);
    if (!ws && !in) words++;
    in = !ws;
  }
  return words < 3;
}

typedef struct {
  int32_t *delta;
  size_t size;
} Phrases;

static void phrases_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Phrases *p = data;
  free(p->delta);
  free(p);
}

/**
 * c4Phrases(delta Int32Array) → handle: a copy of PhraseMatcher's table (128 entries per state, the next state's
 * offset, -1 once a phrase has matched; units ≥ 128 go back to the start), checked once so that no read leaves it.
 */
napi_value c4_phrases(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t *delta;
  size_t nd;
  if (argc < 1 || !typed(env, argv[0], napi_int32_array, (void **)&delta, &nd) || nd == 0 || nd % 128 != 0) return fail(env, "c4Phrases: delta");
  for (size_t k = 0; k < nd; k++)
    if (delta[k] != -1 && (delta[k] < 0 || delta[k] % 128 != 0 || (size_t)delta[k] >= nd)) return fail(env, "c4Phrases: a transition leaves the table");
  Phrases *p = malloc(sizeof(Phrases));
  int32_t *copy = malloc(nd * sizeof(int32_t));
  if (p == NULL || copy == NULL) {
    free(p);
    free(copy);
    return fail(env, "c4Phrases: out of memory");
  }
  memcpy(copy, delta, nd * sizeof(int32_t));
  p->delta = copy;
  p->size = nd;
  napi_value out;
  if (napi_create_external(env, p, phrases_free, NULL, &out) != napi_ok) {
    phrases_free(env, p, NULL);
    return NULL;
  }
  return out;
}

/**
 * c4Lines(handle, lower, out Int32Array, info Int32Array) → the spans' number, written to out as [type (0 no ending
 * punctuation, 1 too few words), start, end] while they fit (call again with more room when the number says they did
 * not); info = [lines, whether a phrase of the handle's table occurs].
 */
napi_value c4_lines(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Phrases *p;
  int32_t *out, *res;
  size_t n, nout, nres;
  if (argc < 4 || napi_get_value_external(env, argv[0], (void **)&p) != napi_ok) return fail(env, "c4Lines: handle");
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "c4Lines: text");
  if (!typed(env, argv[2], napi_int32_array, (void **)&out, &nout)) return fail(env, "c4Lines: out");
  if (!typed(env, argv[3], napi_int32_array, (void **)&res, &nres) || nres < 2) return fail(env, "c4Lines: info");
  const int32_t *delta = p->delta;
  uint16_t *t = utf16_copy(env, argv[1], n);
  if (t == NULL) return fail(env, "c4Lines: text (or out of memory)");
  int hit = 0;
  for (int32_t i = 0, s = 0; i < (int32_t)n; i++) {
    s = t[i] < 128 ? delta[s + t[i]] : 0;
    if (s < 0) {
      hit = 1;
      break;
    }
  }
  size_t count = 0;
  int32_t lines = 0;
  for (int32_t start = 0;; lines++) {
    int32_t nl = start;
    while (nl < (int32_t)n && t[nl] != '\n') nl++;
    int32_t stop = nl, end = nl < (int32_t)n ? nl + 1 : nl, last = stop;
    while (last > start && is_py_ws(t[last - 1])) last--;
    for (int type = 0; type < 2; type++) {
      if (type == 0 ? ends_with_punctuation(t, start, last) : !too_few_words(t, start, last)) continue;
      if ((count + 1) * 3 <= nout) {
        out[count * 3] = type;
        out[count * 3 + 1] = start;
        out[count * 3 + 2] = end;
      }
      count++;
    }
    if (nl == (int32_t)n) break;
    start = nl + 1;
  }
  free(t);
  res[0] = lines + 1;
  res[1] = hit;
  napi_value result;
  CHECK(napi_create_double(env, (double)count, &result));
  return result;
}
