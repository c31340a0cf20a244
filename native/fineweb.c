// fineweb_quality's line pass in C: datatrove/fineweb-quality.ts's fineWebQualityRules loop, step for step.
//
// Like the other quality kernels, this saves mostly compilation; the thresholds and the outcomes stay in JavaScript.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

/** Whether t[a, b) is all Python whitespace (an empty line is). */
static int blank(const uint16_t *t, int32_t a, int32_t b) {
  for (int32_t i = a; i < b; i++)
    if (!is_py_ws(t[i])) return 0;
  return 1;
}

typedef struct {
  /* stops == NULL: TERMINAL_PUNCTUATION, by the line's last code point (terminal[] for the BMP, astral pairs). */
  const uint8_t *terminal;
  const int32_t *astral;
  int32_t astralPairs;
  /* Otherwise the stop strings end to end, string k = stops[at[k], at[k + 1]). */
  const uint16_t *stops;
  const int32_t *at;
  int32_t count;
} Stops;

/** `line.endswith(tuple(stops))` for the line t[a, b). */
static int ends_with_stop(const Stops *s, const uint16_t *t, int32_t a, int32_t b) {
  if (s->stops == NULL) {
    if (b == a) return 0;
    uint16_t last = t[b - 1];
    if (is_low(last) && b - a >= 2 && is_high(t[b - 2])) return in_ranges(s->astral, s->astralPairs, pair_cp(t[b - 2], last));
    return s->terminal[last] == 1;
  }
  for (int32_t k = 0; k < s->count; k++) {
    int32_t len = s->at[k + 1] - s->at[k];
    if (b - a >= len && memcmp(t + b - len, s->stops + s->at[k], (size_t)len * sizeof(uint16_t)) == 0) return 1;
  }
  return 0;
}

/**
 * finewebLines(text, head, terminal Uint8Array(65536), astral Int32Array, stops Uint16Array | null, stopAt Int32Array,
 * shortLength, out Float64Array(6)) → out = [lines split on "\n", non-blank ones, lines ending with a stop, short
 * lines, code points in duplicated non-blank lines, code points without the "\n"s]. The stop and short counts cover
 * the non-blank lines (HEAD) or all (v0.2.0). Stops: TERMINAL_PUNCTUATION (terminal by BMP unit, astral as [cp, cp]
 * pairs ascending) when stops is null, else the strings stops[stopAt[k], stopAt[k + 1]).
 */
napi_value fineweb_lines(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t n, nterm, nastral, nstops = 0, nat, nout;
  bool head;
  int32_t shortLength;
  Stops st = {0};
  double *out;
  napi_valuetype kind;
  if (argc < 8 || napi_get_value_string_utf16(env, argv[0], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "finewebLines: text");
  if (napi_get_value_bool(env, argv[1], &head) != napi_ok) return fail(env, "finewebLines: head");
  if (!typed(env, argv[2], napi_uint8_array, (void **)&st.terminal, &nterm) || nterm != 0x10000) return fail(env, "finewebLines: terminal");
  if (!typed(env, argv[3], napi_int32_array, (void **)&st.astral, &nastral) || nastral % 2 != 0) return fail(env, "finewebLines: astral");
  for (size_t k = 2; k < nastral; k += 2)
    if (st.astral[k] <= st.astral[k - 1]) return fail(env, "finewebLines: astral");
  st.astralPairs = (int32_t)(nastral / 2);
  CHECK(napi_typeof(env, argv[4], &kind));
  uint16_t *stops = NULL;
  int32_t *at = NULL;
  if (kind != napi_null) {
    if (!typed(env, argv[4], napi_uint16_array, (void **)&stops, &nstops)) return fail(env, "finewebLines: stops");
    if (!typed(env, argv[5], napi_int32_array, (void **)&at, &nat) || nat == 0 || at[0] != 0 || (size_t)at[nat - 1] != nstops) return fail(env, "finewebLines: stop offsets");
    for (size_t k = 1; k < nat; k++)
      if (at[k] < at[k - 1]) return fail(env, "finewebLines: stop offsets");
    // An empty typed array may have no data pointer: the strings are found by their offsets, never through it then.
    static const uint16_t none[1] = {0};
    st.stops = stops != NULL ? stops : none;
    st.at = at;
    st.count = (int32_t)nat - 1;
  }
  if (napi_get_value_int32(env, argv[6], &shortLength) != napi_ok) return fail(env, "finewebLines: short length");
  if (!typed(env, argv[7], napi_float64_array, (void **)&out, &nout) || nout < 6) return fail(env, "finewebLines: out");
  uint16_t *t = utf16_copy(env, argv[0], n);
  int32_t *ranges = malloc((2 * n + 2) * sizeof(int32_t));
  if (t == NULL || ranges == NULL) {
    free(t);
    free(ranges);
    return fail(env, "finewebLines: text (or out of memory)");
  }
  double all = 0, punct = 0, shorts = 0;
  uint32_t nonBlank = 0;
  for (int32_t a = 0;;) {
    int32_t b = a;
    while (b < (int32_t)n && t[b] != '\n') b++;
    all++;
    int isBlank = blank(t, a, b);
    if (!isBlank) {
      ranges[2 * nonBlank] = a;
      ranges[2 * nonBlank + 1] = b;
      nonBlank++;
    }
    if (!head || !isBlank) {
      if (ends_with_stop(&st, t, a, b)) punct++;
      // `len(line) <= shortLength`: code points ≤ units ≤ 2 × code points settles most lines without counting.
      if (b - a <= shortLength || (b - a <= 2 * (int64_t)shortLength && (int64_t)cp_len(t, a, b) <= shortLength)) shorts++;
    }
    if (b == (int32_t)n) break;
    a = b + 1;
  }
  // len(text.replace("\n", "")): a pair can form across a removed "\n".
  double chars = 0;
  uint16_t prev = 0;
  for (int32_t i = 0; i < (int32_t)n; i++) {
    uint16_t c = t[i];
    if (c == '\n') continue;
    // A low half after a high one closes a pair: one code point for the two. (A low half never opens one.)
    if (!(is_low(c) && is_high(prev))) chars++;
    prev = c;
  }
  double dups[2];
  int r = range_dups(t, ranges, nonBlank, dups);
  free(t);
  free(ranges);
  out[0] = all;
  out[1] = nonBlank;
  out[2] = punct;
  out[3] = shorts;
  out[4] = dups[1];
  out[5] = chars;
  return r < 0 ? fail(env, "finewebLines: out of memory") : NULL;
}
