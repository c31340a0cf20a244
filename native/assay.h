// What the addon's files share: Node-API, argument helpers, and each kernel's exported functions.
#ifndef ASSAY_H
#define ASSAY_H
#define NAPI_VERSION 8
/** Raised whenever an export's arguments or results change; workers/engine/native-addon.ts holds the same number. */
#ifndef ASSAY_ABI
#define ASSAY_ABI 19
#endif
#include <node_api.h>
#include <stddef.h>
#include <stdint.h>

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != napi_ok) return NULL;                                                                                \
  } while (0)

/** Python's str.isspace() for one UTF-16 unit (every such character is in the BMP): what str.split() and re's \s use. */
static inline int is_py_ws(uint16_t c) {
  if (c < 0x80) return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20);
  return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
         c == 0x205f || c == 0x3000;
}

/** UTF-16 surrogate halves, and the code point a high and a low half make together. */
static inline int is_high(uint16_t c) { return (c & 0xfc00) == 0xd800; }
static inline int is_low(uint16_t c) { return (c & 0xfc00) == 0xdc00; }
static inline int32_t pair_cp(uint16_t high, uint16_t low) { return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00); }

/** Python's len() of t[a, b): UTF-16 units, a surrogate pair counting once (a lone half counts as one). */
static inline uint32_t cp_len(const uint16_t *t, int32_t a, int32_t b) {
  uint32_t n = (uint32_t)(b - a);
  for (int32_t i = a; i < b - 1; i++)
    if (is_high(t[i]) && is_low(t[i + 1])) {
      n--;
      i++;
    }
  return n;
}

/** Whether code point cp is in one of the ascending [lo, hi] pairs (pairs of them), by binary search. */
static inline int in_ranges(const int32_t *ranges, int32_t pairs, int32_t cp) {
  int32_t lo = 0, hi = pairs - 1;
  while (lo <= hi) {
    int32_t mid = (lo + hi) / 2;
    if (cp < ranges[2 * mid]) hi = mid - 1;
    else if (cp > ranges[2 * mid + 1]) lo = mid + 1;
    else return 1;
  }
  return 0;
}

/** Spans written as [type, start, end] while they fit in out (room ints), counted past it: the caller retries with more. */
typedef struct {
  int32_t *out;
  size_t room, count;
} Triples;

static inline void triple_put(Triples *s, int32_t type, int32_t start, int32_t end) {
  if ((s->count + 1) * 3 <= s->room) {
    s->out[s->count * 3] = type;
    s->out[s->count * 3 + 1] = start;
    s->out[s->count * 3 + 2] = end;
  }
  s->count++;
}

/** Throws `message` as an Error; returns NULL for the caller to return. */
napi_value fail(napi_env env, const char *message);
/** A fresh copy of the string `v`, whose UTF-16 length is `n`, with a 0 after it; NULL when out of memory or `v` is not that string. */
uint16_t *utf16_copy(napi_env env, napi_value v, size_t n);
/** A typed array's data and length in elements, when `v` is one of type `type`. */
int typed(napi_env env, napi_value v, napi_typedarray_type type, void **data, size_t *length);

/**
 * gopher_v1's n-gram statistics of words `ids[0, w)` (ids index `lens`): [n, mostCommonChars, duplicateChars,
 * totalChars] per order 2..maxN into `out`; the number of orders, or -1 when out of memory. The ids must be checked.
 */
int32_t ngram_stats(const int32_t *ids, size_t w, const int32_t *lens, size_t nlens, int32_t maxN, double *out);

/**
 * find_duplicates over `count` ranges [a0, b0, a1, b1, …] of t (ranges.c): out[0] = the ranges equal to an earlier
 * one, out[1] = their code points in all. 0, or -1 when out of memory.
 */
int range_dups(const uint16_t *t, const int32_t *ranges, uint32_t count, double *out);

napi_value fasttext_create(napi_env env, napi_callback_info info);
napi_value fasttext_embed(napi_env env, napi_callback_info info);
napi_value gopher_ngram_stats(napi_env env, napi_callback_info info);
napi_value gopher_all_duplicate(napi_env env, napi_callback_info info);
napi_value gopher_top_ngrams(napi_env env, napi_callback_info info);
napi_value gopher_stats_js(napi_env env, napi_callback_info info);
napi_value spacy_scanner(napi_env env, napi_callback_info info);
napi_value spacy_scan(napi_env env, napi_callback_info info);
napi_value spacy_words(napi_env env, napi_callback_info info);
napi_value spacy_expand(napi_env env, napi_callback_info info);
napi_value range_duplicates(napi_env env, napi_callback_info info);
napi_value attr_lines(napi_env env, napi_callback_info info);
napi_value doc_lines(napi_env env, napi_callback_info info);
napi_value row_writer(napi_env env, napi_callback_info info);
napi_value row_key(napi_env env, napi_callback_info info);
napi_value row_attrs(napi_env env, napi_callback_info info);
napi_value pii_fast(napi_env env, napi_callback_info info);
napi_value c4_phrases(napi_env env, napi_callback_info info);
napi_value c4_lines(napi_env env, napi_callback_info info);
napi_value gopher_quality_tables(napi_env env, napi_callback_info info);
napi_value gopher_quality(napi_env env, napi_callback_info info);
napi_value line_edits(napi_env env, napi_callback_info info);
napi_value c4_quality_tables(napi_env env, napi_callback_info info);
napi_value c4_quality(napi_env env, napi_callback_info info);
napi_value repetition_duplicates(napi_env env, napi_callback_info info);
napi_value fineweb_lines(napi_env env, napi_callback_info info);
#endif
