// Line-level rewrites as spans in C: datatrove/line-edits.ts's lineEdits, step for step, over the text's UTF-16 units.
//
// One code per unit of the text (kept, removed, trimmed, separator, replaced), then its runs: the JavaScript did the
// same, and V8 spent more compiling that function (twice in a fresh pass, once on the stack) than running it.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

enum { KEEP, REMOVED, TRIM, SEP, REPL };
enum { KEPT = 1, REPLACED = 2 };
/* The span types written to out, as line-edits.ts names them. */
enum { OUT_REMOVED, OUT_TRIMMED, OUT_SEPARATOR, OUT_REPLACED };

static void fill(uint8_t *code, int32_t from, int32_t to, uint8_t c) {
  if (to > from) memset(code + from, c, (size_t)(to - from));
}

/** markJoiner: the joiner between kept units u and v (unit rows of 6). */
static void mark_joiner(const uint16_t *t, int32_t n, uint8_t *code, const int32_t *u, const int32_t *v, int paragraphs) {
  int32_t end = u[1], next = u[2];
  if (paragraphs) {
    if (end + 1 < n && t[end] == '\r' && t[end + 1] == '\n') {
      code[end] = TRIM;
      code[end + 1] = KEEP;
    } else if (end < n && t[end] == '\n') code[end] = KEEP;
    else fill(code, end, next, SEP);
    return;
  }
  for (int32_t i = u[4]; i < v[3]; i++) {
    if (code[i] != TRIM) continue;
    code[i] = t[i] == ' ' ? KEEP : SEP;
    return;
  }
}

static inline int ws_out(const uint16_t *t, const uint8_t *code, int32_t i) { return code[i] == SEP || (code[i] == KEEP && is_py_ws(t[i])); }

/**
 * lineEdits(text, units Int32Array, cuts Int32Array, paragraphs, strip, out Int32Array) → the spans' number, written to
 * out as [type (0 line_removed, 1 trimmed, 2 separator, 3 line_replaced), start, end] in line-edits.ts's order while
 * they fit (call again with more room when the number says they did not). units = [start, end, next, a, b, flags
 * (1 kept, 2 replaced)] per unit in text order, start ≤ a ≤ b ≤ next and end ≤ next; cuts = [x, y] pairs, each
 * inside a kept unit's [a, b).
 */
napi_value line_edits(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t *units, *cuts, *out;
  size_t n, nunits, ncuts, nout;
  bool paragraphs, strip;
  if (argc < 6 || napi_get_value_string_utf16(env, argv[0], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "lineEdits: text");
  if (!typed(env, argv[1], napi_int32_array, (void **)&units, &nunits) || nunits % 6 != 0) return fail(env, "lineEdits: units");
  if (!typed(env, argv[2], napi_int32_array, (void **)&cuts, &ncuts) || ncuts % 2 != 0) return fail(env, "lineEdits: cuts");
  if (napi_get_value_bool(env, argv[3], &paragraphs) != napi_ok || napi_get_value_bool(env, argv[4], &strip) != napi_ok) return fail(env, "lineEdits: flags");
  if (!typed(env, argv[5], napi_int32_array, (void **)&out, &nout)) return fail(env, "lineEdits: out");
  int32_t len = (int32_t)n, prev = 0;
  // Every offset is checked before a write: the arrays come from JavaScript.
  for (size_t k = 0; k < nunits; k += 6) {
    const int32_t *u = units + k;
    if (u[0] < prev || u[0] > u[3] || u[3] > u[4] || u[4] > u[2] || u[1] > u[2] || u[1] < u[0] || u[2] > len) return fail(env, "lineEdits: unit offsets");
    prev = u[2];
  }
  for (size_t k = 0; k < ncuts; k += 2)
    if (cuts[k] < 0 || cuts[k] > cuts[k + 1] || cuts[k + 1] > len) return fail(env, "lineEdits: cut offsets");
  uint8_t *code = malloc(n + 1);
  uint16_t *t = utf16_copy(env, argv[0], n);
  if (code == NULL || t == NULL) {
    free(code);
    free(t);
    return fail(env, "lineEdits: text (or out of memory)");
  }
  fill(code, 0, len, paragraphs ? REMOVED : TRIM);
  const int32_t *last = NULL;
  for (size_t k = 0; k < nunits; k += 6) {
    const int32_t *u = units + k;
    if (u[5] & KEPT) {
      fill(code, u[0], u[3], TRIM);
      fill(code, u[3], u[4], KEEP);
      fill(code, u[4], u[2], TRIM);
    } else if (!paragraphs) fill(code, u[3], u[4], REMOVED);
  }
  for (size_t k = 0; k < ncuts; k += 2) fill(code, cuts[k], cuts[k + 1], TRIM);
  for (size_t k = 0; k < nunits; k += 6)
    if ((units[k + 5] & (KEPT | REPLACED)) == (KEPT | REPLACED)) fill(code, units[k + 3], units[k + 4], REPL);
  for (size_t k = 0; k < nunits; k += 6) {
    if (!(units[k + 5] & KEPT)) continue;
    if (last != NULL) mark_joiner(t, len, code, last, units + k, paragraphs);
    last = units + k;
  }
  if (strip) {
    // The final `.strip()`: output characters (kept ones, and joiners, which are whitespace) at either end.
    for (int32_t i = 0; i < len; i++) {
      if (code[i] != KEEP && code[i] != SEP) continue;
      if (!ws_out(t, code, i)) break;
      code[i] = TRIM;
    }
    for (int32_t i = len - 1; i >= 0; i--) {
      if (code[i] != KEEP && code[i] != SEP) continue;
      if (!ws_out(t, code, i)) break;
      code[i] = TRIM;
    }
  }
  // The removed units and the runs, each in text order, merged by start (a removed unit first at equal starts).
  Triples s = {out, nout, 0};
  size_t k = 0;
  for (int32_t i = 0; i < len;) {
    int32_t j = i + 1;
    while (j < len && code[j] == code[i]) j++;
    int type = code[i] == TRIM ? OUT_TRIMMED : code[i] == SEP ? OUT_SEPARATOR : code[i] == REPL ? OUT_REPLACED : -1;
    if (type >= 0) {
      for (; k < nunits; k += 6) {
        if (units[k + 5] & KEPT) continue;
        int32_t start = paragraphs ? units[k] : units[k + 3];
        if (start > i) break;
        triple_put(&s, OUT_REMOVED, start, paragraphs ? units[k + 2] : units[k + 4]);
      }
      triple_put(&s, type, i, j);
    }
    i = j;
  }
  for (; k < nunits; k += 6)
    if (!(units[k + 5] & KEPT)) triple_put(&s, OUT_REMOVED, paragraphs ? units[k] : units[k + 3], paragraphs ? units[k + 2] : units[k + 4]);
  free(code);
  free(t);
  napi_value result;
  CHECK(napi_create_double(env, (double)s.count, &result));
  return result;
}
