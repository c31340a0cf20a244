// gopher_quality's counts in C: datatrove/gopher-quality.ts's word loop, line loop and symbol counts, step for step.
//
// Like pii.c and c4.c, this saves mostly compilation: the loops are short, but optimizing gopherQualityRules was the
// largest single job of V8's compiler in a fresh FineWeb pass. Words with a surrogate pair go back to the JavaScript,
// whose isalpha and punctuation sets reach beyond the BMP; the thresholds and the outcomes stay there too.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

enum { PUNCT = 1, ALPHA = 2 };

typedef struct {
  /* Per BMP unit: PUNCT (in DataTrove's PUNCTUATION_SET), ALPHA (str.isalpha()); 0 for surrogates. */
  uint8_t cls[0x10000];
  /* The stop words end to end, word k = stop[at[k], at[k + 1]). */
  uint16_t *stop;
  int32_t *at;
  int32_t stops;
} Tables;

static void tables_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Tables *t = data;
  free(t->stop);
  free(t->at);
  free(t);
}

/**
 * gopherQualityTables(punct Uint8Array(65536), alpha Uint16Array, stopChars Uint16Array, stopAt Int32Array) → handle:
 * the units in PUNCTUATION_SET (punct[u] = 1), the alphabetic ones as [lo, hi] pairs ascending (text/bmp-ranges.ts), and
 * the distinct stop words (word k = stopChars[stopAt[k], stopAt[k + 1])), copied and checked once.
 */
napi_value gopher_quality_tables(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *punct;
  uint16_t *alpha, *chars;
  int32_t *at;
  size_t npunct, nalpha, nchars, nat;
  if (argc < 4 || !typed(env, argv[0], napi_uint8_array, (void **)&punct, &npunct) || npunct != 0x10000) return fail(env, "gopherQualityTables: punctuation");
  if (!typed(env, argv[1], napi_uint16_array, (void **)&alpha, &nalpha) || nalpha % 2 != 0) return fail(env, "gopherQualityTables: letters");
  for (size_t k = 0; k < nalpha; k += 2)
    if (alpha[k] > alpha[k + 1] || (k > 0 && alpha[k] <= alpha[k - 1])) return fail(env, "gopherQualityTables: letters");
  if (!typed(env, argv[2], napi_uint16_array, (void **)&chars, &nchars)) return fail(env, "gopherQualityTables: stop words");
  if (!typed(env, argv[3], napi_int32_array, (void **)&at, &nat) || nat == 0 || at[0] != 0 || (size_t)at[nat - 1] != nchars) return fail(env, "gopherQualityTables: stop word offsets");
  for (size_t k = 1; k < nat; k++)
    if (at[k] < at[k - 1]) return fail(env, "gopherQualityTables: stop word offsets");
  Tables *t = malloc(sizeof(Tables));
  uint16_t *stop = malloc((nchars + 1) * sizeof(uint16_t));
  int32_t *copy = malloc(nat * sizeof(int32_t));
  if (t == NULL || stop == NULL || copy == NULL) {
    free(t);
    free(stop);
    free(copy);
    return fail(env, "gopherQualityTables: out of memory");
  }
  for (size_t u = 0; u < 0x10000; u++) t->cls[u] = punct[u] ? PUNCT : 0;
  for (size_t k = 0; k < nalpha; k += 2)
    for (uint32_t u = alpha[k]; u <= alpha[k + 1]; u++) t->cls[u] |= ALPHA;
  // Surrogate halves are never a class: a pair goes to the JavaScript, a lone half is neither (as Python has it).
  memset(t->cls + 0xd800, 0, 0x800);
  memcpy(stop, chars, nchars * sizeof(uint16_t));
  memcpy(copy, at, nat * sizeof(int32_t));
  t->stop = stop;
  t->at = copy;
  t->stops = (int32_t)nat - 1;
  napi_value out;
  if (napi_create_external(env, t, tables_free, NULL, &out) != napi_ok) {
    tables_free(env, t, NULL);
    return NULL;
  }
  return out;
}


static int is_stop(const Tables *t, const uint16_t *w, int32_t len) {
  for (int32_t k = 0; k < t->stops; k++) {
    int32_t a = t->at[k];
    if (t->at[k + 1] - a == len && memcmp(t->stop + a, w, (size_t)len * sizeof(uint16_t)) == 0) return 1;
  }
  return 0;
}

/**
 * text.count("#") and text.count("...") + text.count("…") in one pass: non-overlapping "..." left to right, as
 * str.count finds them.
 */
static void symbol_counts(const uint16_t *t, int32_t n, double *hashes, double *ellipses) {
  double h = 0, e = 0;
  for (int32_t i = 0; i < n; i++) {
    uint16_t c = t[i];
    if (c == '#') h++;
    else if (c == 0x2026) e++;
    else if (c == '.' && i + 2 < n && t[i + 1] == '.' && t[i + 2] == '.') {
      e++;
      i += 2;
    }
  }
  *hashes = h;
  *ellipses = e;
}

/**
 * gopherQuality(handle, text, lines Int32Array, chars Uint16Array, starts Int32Array, ids Int32Array, first Int32Array,
 * cpLens Int32Array, count, vocab, out Float64Array(9), astral Int32Array) → the words left to the JavaScript.
 * `lines` are splitlineOffsets' triples, the word arrays word-ids.ts's WordIds. out = [non-symbol words, their code
 * points, alphabetic words, distinct stop words, stop word occurrences, bullet lines, end-ellipsis lines, "#" count,
 * "..." + "…" count]; a word with a surrogate pair adds to the stop word counts only, and goes to astral as
 * [id, occurrences] (room for vocab pairs) for the JavaScript's symbol and alphabetic tests.
 */
napi_value gopher_quality(napi_env env, napi_callback_info info) {
  size_t argc = 12;
  napi_value argv[12];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Tables *tb;
  int32_t *lines, *starts, *ids, *first, *cpLens, *astral;
  uint16_t *chars;
  double *out;
  size_t n, nlines, nchars, nstarts, nids, nfirst, ncp, nout, nastral;
  int32_t count, vocab;
  if (argc < 12 || napi_get_value_external(env, argv[0], (void **)&tb) != napi_ok) return fail(env, "gopherQuality: handle");
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "gopherQuality: text");
  if (!typed(env, argv[2], napi_int32_array, (void **)&lines, &nlines) || nlines % 3 != 0) return fail(env, "gopherQuality: lines");
  if (!typed(env, argv[3], napi_uint16_array, (void **)&chars, &nchars) || !typed(env, argv[4], napi_int32_array, (void **)&starts, &nstarts) ||
      !typed(env, argv[5], napi_int32_array, (void **)&ids, &nids) || !typed(env, argv[6], napi_int32_array, (void **)&first, &nfirst) ||
      !typed(env, argv[7], napi_int32_array, (void **)&cpLens, &ncp))
    return fail(env, "gopherQuality: words");
  if (napi_get_value_int32(env, argv[8], &count) != napi_ok || napi_get_value_int32(env, argv[9], &vocab) != napi_ok || count < 0 || vocab < 0 ||
      (size_t)count > nids || (size_t)count + 1 > nstarts || (size_t)vocab > nfirst || (size_t)vocab > ncp || vocab > count)
    return fail(env, "gopherQuality: counts");
  if (!typed(env, argv[10], napi_float64_array, (void **)&out, &nout) || nout < 9) return fail(env, "gopherQuality: out");
  if (!typed(env, argv[11], napi_int32_array, (void **)&astral, &nastral) || nastral < 2 * (size_t)vocab) return fail(env, "gopherQuality: astral");
  // Every offset is checked before a read: the arrays come from JavaScript.
  for (int32_t k = 0; k <= count; k++)
    if (starts[k] < 0 || (size_t)starts[k] > nchars || (k > 0 && starts[k] < starts[k - 1])) return fail(env, "gopherQuality: word starts");
  for (int32_t k = 0; k < count; k++)
    if (ids[k] < 0 || ids[k] >= vocab) return fail(env, "gopherQuality: word ids");
  for (int32_t id = 0; id < vocab; id++)
    if (first[id] < 0 || first[id] >= count) return fail(env, "gopherQuality: first occurrences");
  for (size_t k = 0; k < nlines; k += 3)
    if (lines[k] < 0 || lines[k] > lines[k + 1] || (size_t)lines[k + 1] > n) return fail(env, "gopherQuality: line offsets");
  int32_t *occ = calloc((size_t)vocab + 1, sizeof(int32_t));
  uint16_t *t = utf16_copy(env, argv[1], n);
  if (occ == NULL || t == NULL) {
    free(occ);
    free(t);
    return fail(env, "gopherQuality: text (or out of memory)");
  }
  for (int32_t k = 0; k < count; k++) occ[ids[k]]++;
  double nonSymbol = 0, nonSymbolChars = 0, alphaWords = 0, stopIds = 0, stopWords = 0;
  int32_t left = 0;
  for (int32_t id = 0; id < vocab; id++) {
    int32_t k = occ[id], at = first[id], a = starts[at], b = starts[at + 1];
    if (is_stop(tb, chars + a, b - a)) {
      stopIds++;
      stopWords += k;
    }
    int symbol = 1, alpha = 0, pair = 0;
    for (int32_t i = a; i < b; i++) {
      uint16_t c = chars[i];
      if (is_high(c) && i + 1 < b && is_low(chars[i + 1])) {
        pair = 1;
        break;
      }
      uint8_t cls = tb->cls[c];
      if (!(cls & PUNCT)) symbol = 0;
      if (cls & ALPHA) alpha = 1;
    }
    if (pair) {
      astral[2 * left] = id;
      astral[2 * left + 1] = k;
      left++;
      continue;
    }
    if (!symbol) {
      nonSymbol += k;
      nonSymbolChars += (double)k * cpLens[id];
    }
    if (alpha) alphaWords += k;
  }
  double bullets = 0, endEllipsis = 0;
  for (size_t k = 0; k < nlines; k += 3) {
    // `l.lstrip().startswith(("•", "-"))` and `l.rstrip().endswith(("...", "…"))`, read in place.
    int32_t a = lines[k], b = lines[k + 1];
    while (a < b && is_py_ws(t[a])) a++;
    if (a < b && (t[a] == 0x2022 || t[a] == 0x2d)) bullets++;
    while (b > a && is_py_ws(t[b - 1])) b--;
    if (b - a >= 1 && t[b - 1] == 0x2026) endEllipsis++;
    else if (b - a >= 3 && t[b - 1] == '.' && t[b - 2] == '.' && t[b - 3] == '.') endEllipsis++;
  }
  out[0] = nonSymbol;
  out[1] = nonSymbolChars;
  out[2] = alphaWords;
  out[3] = stopIds;
  out[4] = stopWords;
  out[5] = bullets;
  out[6] = endEllipsis;
  symbol_counts(t, (int32_t)n, &out[7], &out[8]);
  free(occ);
  free(t);
  napi_value result;
  CHECK(napi_create_int32(env, left, &result));
  return result;
}
