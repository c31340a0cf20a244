// gopher_v1's statistics of one text in C: dolma/gopher-stats.ts's wordStats and lineStats, then the n-gram counts.
//
// The text arrives as UTF-16 units (a copy of the JavaScript string), so offsets and lengths are the JavaScript's.
// Whether a non-ASCII word without an ASCII letter has a letter (Python's isalpha on any character) needs Unicode's
// tables: such words are handed back, once each with their number of occurrences, for the caller's regex to decide,
// as the JavaScript decides them once per distinct word.
#include "assay.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SHORT 256
/** Values gopher_stats writes before the n-gram orders (see its comment). */
#define HEAD 12

static int is_letter_ascii(uint16_t c) { return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

/** Open addressing over spans of the text: per slot the hash, and 1 + the key's id (0 empty). */
typedef struct {
  uint32_t *hash;
  int32_t *entry;
  int32_t *start, *len;
  size_t mask, size, cap;
} Keys;

static int keys_init(Keys *k, size_t expected) {
  size_t slots = 64;
  while (slots < expected * 2) slots *= 2;
  k->hash = calloc(slots, sizeof(uint32_t));
  k->entry = calloc(slots, sizeof(int32_t));
  k->cap = expected + 1;
  k->start = malloc(k->cap * sizeof(int32_t));
  k->len = malloc(k->cap * sizeof(int32_t));
  k->mask = slots - 1;
  k->size = 0;
  return k->hash != NULL && k->entry != NULL && k->start != NULL && k->len != NULL;
}

static void keys_free(Keys *k) {
  free(k->hash);
  free(k->entry);
  free(k->start);
  free(k->len);
}

/** Id of text[a, a + len) (hash h), a new one (the next id) when absent; *fresh says which. -1: out of memory. */
static int32_t keys_id(Keys *k, const uint16_t *text, int32_t a, int32_t len, uint32_t h, int *fresh) {
  size_t slot = (h * 0x9e3779b1u) >> 7 & k->mask;
  for (;; slot = (slot + 1) & k->mask) {
    int32_t e = k->entry[slot];
    if (e == 0) break;
    if (k->hash[slot] == h && k->len[e - 1] == len && memcmp(text + k->start[e - 1], text + a, (size_t)len * 2) == 0) {
      *fresh = 0;
      return e - 1;
    }
  }
  if (k->size + 1 >= k->cap) {
    // Keys grow with the text's distinct words (or lines); the table below at half full.
    int32_t *s = realloc(k->start, k->cap * 2 * sizeof(int32_t));
    if (s == NULL) return -1;
    k->start = s;
    int32_t *l = realloc(k->len, k->cap * 2 * sizeof(int32_t));
    if (l == NULL) return -1;
    k->len = l;
    k->cap *= 2;
  }
  int32_t id = (int32_t)k->size++;
  k->start[id] = a;
  k->len[id] = len;
  k->hash[slot] = h;
  k->entry[slot] = id + 1;
  *fresh = 1;
  if (k->size * 2 > k->mask) {
    size_t old = k->mask + 1;
    uint32_t *oh = k->hash;
    int32_t *oe = k->entry;
    k->hash = calloc(old * 2, sizeof(uint32_t));
    k->entry = calloc(old * 2, sizeof(int32_t));
    if (k->hash == NULL || k->entry == NULL) {
      free(oh);
      free(oe);
      return -1;
    }
    k->mask = old * 2 - 1;
    for (size_t i = 0; i < old; i++)
      if (oe[i] != 0) {
        size_t s = (oh[i] * 0x9e3779b1u) >> 7 & k->mask;
        while (k->entry[s] != 0) s = (s + 1) & k->mask;
        k->hash[s] = oh[i];
        k->entry[s] = oe[i];
      }
    free(oh);
    free(oe);
  }
  return id;
}

static int cmp_int(const void *a, const void *b) { return (*(const int32_t *)a > *(const int32_t *)b) - (*(const int32_t *)a < *(const int32_t *)b); }

static const char *REQUIRED[] = {"the", "be", "to", "of", "and", "that", "have", "with"};

static int required_word(const uint16_t *t, int32_t len) {
  for (size_t k = 0; k < sizeof REQUIRED / sizeof *REQUIRED; k++) {
    const char *w = REQUIRED[k];
    if ((int32_t)strlen(w) != len) continue;
    int32_t i = 0;
    while (i < len && t[i] == (uint16_t)w[i]) i++;
    if (i == len) return 1;
  }
  return 0;
}

typedef struct {
  double *out;
  int32_t *firstStart, *firstEnd;
  size_t firstCap;
  int32_t *pending, *pendingCount;
  size_t pendingCap, npending;
  size_t distinct;
} Result;

/**
 * out: [words, non-whitespace code points, surrogate pairs, symbol words, alpha words (pending ones not counted),
 * required words, 2 × median length, lines, bullet lines, ellipsis lines, duplicate lines, duplicate line code points,
 * then 4 per n-gram order]; first occurrences' starts and ends of the distinct words; the pending words (by id)
 * and how often each occurs. Returns the number of n-gram orders, or -1 when out of memory, -2 when the
 * distinct-word buffers are too small.
 */
static int32_t gopher_stats(const uint16_t *t, int32_t n, Result *r) {
  Keys words, lines;
  int32_t *ids = malloc(((size_t)n / 2 + 2) * sizeof(int32_t));
  int32_t *lens = malloc(((size_t)n / 2 + 2) * sizeof(int32_t));
  int32_t *counts = malloc(((size_t)n + 2) * sizeof(int32_t));
  uint8_t *flags = malloc((size_t)n / 2 + 2);
  int32_t *longer = malloc(((size_t)n / 2 + 2) * sizeof(int32_t));
  // Sized as the JavaScript sizes them (a word per 8 units, a line per 64), grown as needed.
  int ok = keys_init(&words, ((size_t)n >> 3) + 8) & keys_init(&lines, ((size_t)n >> 6) + 8) && ids != NULL && lens != NULL && counts != NULL && flags != NULL && longer != NULL;
  int32_t result = -1;
  int32_t hist[SHORT + 1] = {0};
  size_t count = 0, nlong = 0;
  int64_t chars = 0, pairs = 0, symbolWords = 0, alphaWords = 0, requiredWords = 0;
  if (!ok) goto done;
  r->npending = 0;
  for (int32_t i = 0; i < n;) {
    if (is_py_ws(t[i])) {
      i++;
      continue;
    }
    int32_t a = i;
    int ascii_alpha = 0, non_ascii = 0, symbol = 0;
    int32_t wordPairs = 0;
    uint32_t h = 0x811c9dc5u;
    for (; i < n; i++) {
      uint16_t c = t[i];
      if (c < 128) {
        if (is_py_ws(c)) break;
        if (is_letter_ascii(c)) ascii_alpha = 1;
        if (c == '#') symbol = 1;
      } else {
        if (is_py_ws(c)) break;
        non_ascii = 1;
        if (c == 0x2026) symbol = 1;
        if ((c & 0xfc00) == 0xdc00 && i > a && (t[i - 1] & 0xfc00) == 0xd800) wordPairs++;
      }
      h = (h ^ c) * 0x01000193u;
    }
    int32_t len = i - a - wordPairs;
    int fresh;
    int32_t id = keys_id(&words, t, a, i - a, h, &fresh);
    if (id < 0) goto done;
    if (fresh) {
      lens[id] = len;
      counts[id] = 0;
      // An ASCII letter decides it; otherwise a non-ASCII character might be a letter: the caller's regex decides.
      int pend = !ascii_alpha && non_ascii;
      flags[id] = (uint8_t)(ascii_alpha | (i - a <= 4 && !non_ascii && required_word(t + a, i - a) ? 2 : 0) | (pend ? 4 : 0));
    }
    counts[id]++;
    ids[count++] = id;
    chars += len;
    pairs += wordPairs;
    if (len <= SHORT) hist[len]++;
    else longer[nlong++] = len;
    if (symbol) symbolWords++;
    alphaWords += flags[id] & 1;
    requiredWords += (flags[id] >> 1) & 1;
  }
  r->distinct = words.size;
  if (words.size > r->firstCap) {
    result = -2;
    goto done;
  }
  for (size_t id = 0; id < words.size; id++) {
    r->firstStart[id] = words.start[id];
    r->firstEnd[id] = words.start[id] + words.len[id];
    if (flags[id] & 4) {
      if (r->npending >= r->pendingCap) {
        result = -2;
        goto done;
      }
      r->pending[r->npending] = (int32_t)id;
      r->pendingCount[r->npending++] = counts[id];
    }
  }
  // 2 × the median word length (statistics.median), from the histogram and the sorted longer lengths.
  int64_t twice = 0;
  if (count > 0) {
    qsort(longer, nlong, sizeof(int32_t), cmp_int);
    int64_t nth[2];
    size_t want[2] = {count % 2 == 1 ? count / 2 : count / 2 - 1, count / 2};
    for (int q = 0; q < 2; q++) {
      size_t seen = 0;
      int found = 0;
      for (int32_t l = 0; l <= SHORT && !found; l++) {
        seen += (size_t)hist[l];
        if (seen > want[q]) {
          nth[q] = l;
          found = 1;
        }
      }
      if (!found) nth[q] = longer[want[q] - seen];
    }
    twice = count % 2 == 1 ? 2 * nth[0] : nth[0] + nth[1];
  }
  // Lines: text.split("\n").
  int64_t nlines = 0, bullets = 0, ellipsis = 0;
  for (int32_t start = 0;;) {
    uint32_t h = 0x811c9dc5u;
    int32_t end = start;
    for (; end < n && t[end] != 10; end++) h = (h ^ t[end]) * 0x01000193u;
    nlines++;
    if (end > start) {
      if (t[start] == 0x2a || t[start] == 0x2d) bullets++;
      if (t[end - 1] == 0x2026) ellipsis++;
    }
    int fresh;
    int32_t id = keys_id(&lines, t, start, end - start, h, &fresh);
    if (id < 0) goto done;
    if (fresh) counts[id] = 0;
    counts[id]++;
    if (end >= n) break;
    start = end + 1;
  }
  int64_t dupLines = 0, dupChars = 0;
  for (size_t id = 0; id < lines.size; id++) {
    int32_t c = counts[id];
    if (c <= 1) continue;
    dupLines += c;
    int32_t s = lines.start[id], e = s + lines.len[id], p = 0;
    if (pairs > 0)
      for (int32_t i = s + 1; i < e; i++)
        if ((t[i] & 0xfc00) == 0xdc00 && (t[i - 1] & 0xfc00) == 0xd800) p++;
    dupChars += (int64_t)(e - s - p) * c;
  }
  const double head[HEAD] = {count, chars, pairs, symbolWords, alphaWords, requiredWords, twice, nlines, bullets, ellipsis, dupLines, dupChars};
  memcpy(r->out, head, sizeof head);
  result = ngram_stats(ids, count, lens, words.size, 10, r->out + HEAD);
done:
  keys_free(&words);
  keys_free(&lines);
  free(ids);
  free(lens);
  free(counts);
  free(flags);
  free(longer);
  return result;
}

/**
 * gopherStats(text string, out Float64Array(12 + 36), firstStart Int32Array, firstEnd Int32Array, pending
 * Int32Array, pendingCount Int32Array) → [orders, distinct words, pending words].
 */
napi_value gopher_stats_js(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Result r;
  size_t nout, ns, ne, np, npc, n;
  if (argc < 6 || napi_get_value_string_utf16(env, argv[0], NULL, 0, &n) != napi_ok) return fail(env, "gopherStats: text");
  if (!typed(env, argv[1], napi_float64_array, (void **)&r.out, &nout) || nout < HEAD + 36) return fail(env, "gopherStats: out");
  if (!typed(env, argv[2], napi_int32_array, (void **)&r.firstStart, &ns) || !typed(env, argv[3], napi_int32_array, (void **)&r.firstEnd, &ne)) return fail(env, "gopherStats: first occurrences");
  if (!typed(env, argv[4], napi_int32_array, (void **)&r.pending, &np) || !typed(env, argv[5], napi_int32_array, (void **)&r.pendingCount, &npc)) return fail(env, "gopherStats: pending");
  if (n > 0x3fffffff) return fail(env, "gopherStats: text too long");
  r.firstCap = ns < ne ? ns : ne;
  r.pendingCap = np < npc ? np : npc;
  r.npending = 0;
  r.distinct = 0;
  uint16_t *text = malloc((n + 1) * sizeof(uint16_t));
  if (text == NULL) return fail(env, "gopherStats: out of memory");
  size_t copied;
  if (napi_get_value_string_utf16(env, argv[0], (char16_t *)text, n + 1, &copied) != napi_ok || copied != n) {
    free(text);
    return fail(env, "gopherStats: text");
  }
  int32_t orders = gopher_stats(text, (int32_t)n, &r);
  free(text);
  if (orders == -1) return fail(env, "gopherStats: out of memory");
  if (orders == -2) return fail(env, "gopherStats: the distinct-word buffers are too small");
  napi_value out, v;
  CHECK(napi_create_array_with_length(env, 3, &out));
  int32_t values[3] = {orders, (int32_t)r.distinct, (int32_t)r.npending};
  for (int k = 0; k < 3; k++) {
    CHECK(napi_create_int32(env, values[k], &v));
    CHECK(napi_set_element(env, out, (uint32_t)k, v));
  }
  return out;
}
