// spaCy's tokenizer, its general path in C: tokenizer.ts's `lengths` (affixes, infixes) for the chunks it can settle.
//
// A chunk the fast path marks costs the JavaScript ≈ 9 µs the first time it is seen, in code V8 seldom optimizes
// (≈ 12 % of a fresh FineWeb pass). This file repeats affixes.ts's findPrefix / findSuffix, tokenizer.ts's
// splitChunk and infix loop, and the infix regex's alternatives step for step, on BMP text. Where the JavaScript
// would consult a table that stays there — a special case (the hash filter says maybe), a run of tokens that may
// spell a special-case pattern, a core that URL_MATCH may accept — or meet a surrogate, it returns -1 and the
// JavaScript decides. The tokenizer tests hold every result to the JavaScript's general path. Results, the
// JavaScript's too, are cached here by the chunk's text, like cache.ts's cache: a repeated chunk never reaches the
// JavaScript.
#include "assay.h"
#include "spacy.h"
#include <stdlib.h>
#include <string.h>

/** Class bits, one per table passed in (affixes.ts's generalPathData order), and DOTA made here. */
enum { G_PRE1 = 1, G_SUF1 = 2, G_ICON = 4, G_AD1 = 8, G_MLAST = 16, G_AUP = 32, G_ALOW = 64, G_A = 128, G_Q = 256, G_PUNCT = 512, G_DOTA = 1024 };
#define G_TABLES 10

typedef struct {
  uint16_t *units;
  int32_t *at; /* entry k is units[at[k], at[k + 1]) */
  int32_t n;
} List;

/** Chunks up to this length are cached (cache.ts's MAX_KEY); the cache is emptied when it holds CACHE_MAX of them. */
#define CACHE_KEY 64
#define CACHE_SLOTS (1u << 17)
#define CACHE_MAX (CACHE_SLOTS / 2)

struct General {
  uint16_t cls[0x10000];
  int en;
  int32_t maxFixed, longestRule, longestPattern;
  const Filter *specials;
  Filter texts;
  List sufMulti, currency, units, hyphens;
  /* Cache: slot = 1 + entry offset in pool, 0 empty; an entry is [length, units..., count, lengths...]. */
  uint32_t *slots, *hashes;
  uint32_t entries;
  uint16_t *pool;
  size_t pused, pcap;
};

static inline int has(const General *g, uint16_t c, uint16_t bits) { return (g->cls[c] & bits) != 0; }
static inline int digit(int32_t c) { return c >= '0' && c <= '9'; }

static uint32_t hash_range(const uint16_t *t, int32_t lo, int32_t hi) {
  uint32_t h = 0;
  for (int32_t i = lo; i < hi; i++) h = h * 31u + t[i];
  return h;
}

/** Whether t[lo, hi) may be a special case: tokenizer.ts's `special` through its filter (exact for every key). */
static int maybe_special(const General *g, const uint16_t *t, int32_t lo, int32_t hi) {
  return hi - lo <= g->longestRule && may_have(g->specials, hash_range(t, lo, hi), hi - lo);
}

/** Whether t[p, p + n) is one of the list's strings. */
static int in_list(const List *l, const uint16_t *t, int32_t p, int32_t n) {
  for (int32_t k = 0; k < l->n; k++)
    if (l->at[k + 1] - l->at[k] == n && memcmp(l->units + l->at[k], t + p, (size_t)n * 2) == 0) return 1;
  return 0;
}

/** affixes.ts's findPrefix. */
static int32_t find_prefix(const General *g, const uint16_t *t, int32_t lo, int32_t hi) {
  if (lo >= hi) return 0;
  uint16_t c = t[lo];
  if (has(g, c, G_PRE1)) return 1;
  if (c == '+') return lo + 1 < hi && digit(t[lo + 1]) ? 0 : 1;
  if (c == '.') {
    int32_t j = lo;
    while (j < hi && t[j] == '.') j++;
    if (j - lo >= 2) return j - lo;
  }
  if (hi - lo >= 3 && c == 'U' && t[lo + 1] == 'S' && t[lo + 2] == '$') return 3;
  if (hi - lo >= 2 && (c == 'C' || c == 'A') && t[lo + 1] == '$') return 2;
  return has(g, c, G_ICON) ? 1 : 0;
}

/** affixes.ts's suffixAt: whether a suffix alternative of n units matches exactly t[p, hi). */
static int suffix_at(const General *g, const uint16_t *t, int32_t lo, int32_t p, int32_t hi, int32_t n) {
  int32_t prev = p > lo ? t[p - 1] : -1;
  int prevDigit = digit(prev);
  if (n == 1) {
    uint16_t c = t[p];
    if (has(g, c, G_SUF1 | G_ICON)) return 1;
    if (prevDigit && has(g, c, G_AD1)) return 1;
    if (c != '.' || prev < 0) return 0;
    if (has(g, (uint16_t)prev, G_DOTA)) return 1;
    int32_t p2 = p - 1;
    if (p2 <= lo) return 0;
    uint16_t prev2 = t[p2 - 1];
    if (prev2 == 0xb0 && (prev == 'F' || prev == 'f' || prev == 'C' || prev == 'c' || prev == 'K' || prev == 'k')) return 1;
    return has(g, (uint16_t)prev, G_AUP) && has(g, prev2, G_AUP);
  }
  if (in_list(&g->sufMulti, t, p, hi - p)) return 1;
  return prevDigit && (in_list(&g->currency, t, p, hi - p) || in_list(&g->units, t, p, hi - p));
}

/** affixes.ts's findSuffix. */
static int32_t find_suffix(const General *g, const uint16_t *t, int32_t lo, int32_t hi) {
  if (lo >= hi) return 0;
  int32_t d = hi;
  while (d > lo && t[d - 1] == '.') d--;
  if (hi - d >= 2) return hi - d;
  int32_t p = hi - 1, n = 1;
  if (has(g, t[hi - 1], G_MLAST))
    while (p > lo && n < g->maxFixed) p--, n++;
  for (; n >= 1; n--, p++)
    if (suffix_at(g, t, lo, p, hi, n)) return hi - p;
  return 0;
}

/** The length of the infix regex's match at i in t[lo, hi) (its alternatives in order, lookarounds inside the range), or 0. */
static int32_t infix_at(const General *g, const uint16_t *t, int32_t lo, int32_t hi, int32_t i) {
  uint16_t c = t[i];
  int32_t prev = i > lo ? t[i - 1] : -1, next = i + 1 < hi ? t[i + 1] : -1;
  if (c == '.' && next == '.') {
    int32_t j = i;
    while (j < hi && t[j] == '.') j++;
    return j - i;
  }
  if (c == 0x2026 || has(g, c, G_ICON)) return 1;
  if (digit(prev) && (c == '+' || c == '-' || c == '*' || c == '^') && (digit(next) || next == '-')) return 1;
  if (c == '.' && prev >= 0 && next >= 0 && has(g, (uint16_t)prev, G_ALOW | G_Q) && has(g, (uint16_t)next, G_AUP | G_Q)) return 1;
  if (c == ',' && prev >= 0 && next >= 0 && has(g, (uint16_t)prev, G_A) && has(g, (uint16_t)next, G_A)) return 1;
  if (prev >= 0 && (has(g, (uint16_t)prev, G_A) || (g->en && digit(prev))))
    for (int32_t k = 0; k < g->hyphens.n; k++) {
      int32_t n = g->hyphens.at[k + 1] - g->hyphens.at[k];
      if (i + n < hi && memcmp(g->hyphens.units + g->hyphens.at[k], t + i, (size_t)n * 2) == 0 && has(g, t[i + n], G_A)) return n;
    }
  if ((c == ':' || c == '<' || c == '>' || c == '=' || c == '/') && prev >= 0 && next >= 0 && (has(g, (uint16_t)prev, G_A) || digit(prev)) &&
      has(g, (uint16_t)next, G_A))
    return 1;
  return 0;
}

/** tokenizer.ts's infixes: the regex's matches from left to right split t[lo, hi); lengths appended at out[n]. */
static int32_t infixes(const General *g, const uint16_t *t, int32_t lo, int32_t hi, int32_t *out, int32_t n) {
  int32_t start = lo;
  for (int32_t i = lo; i < hi;) {
    int32_t len = infix_at(g, t, lo, hi, i);
    if (len == 0) {
      i++;
      continue;
    }
    // An infix at the very start is not split off (upstream `start_before_infixes`): start stays.
    if (i != lo) {
      if (i != start) out[n++] = i - start;
      out[n++] = len;
      start = i + len;
    }
    i += len;
  }
  if (start < hi) out[n++] = hi - start;
  return n;
}

/** Whether the host from h may match URL_MATCH's host and port (url.ts's hostMatches; ASCII text only here). */
static int host_possible(const uint16_t *t, int32_t h, int32_t hi) {
  int32_t b = h;
  for (; b < hi && t[b] != '/' && t[b] != '?' && t[b] != '#'; b++)
    if (t[b] == '@') return 0;
  int32_t e = b;
  for (int32_t k = b - 1; k >= h; k--)
    if (t[k] == ':') {
      // Neither host form has a ':': only a port of 2 to 5 digits may follow one, at the end.
      if (b - k - 1 < 2 || b - k - 1 > 5) return 0;
      for (int32_t j = k + 1; j < b; j++)
        if (!digit(t[j])) return 0;
      e = k;
      break;
    }
  // IPv4: four octets of one to three digits (the regex narrows them further).
  int ipv4 = 1, dots = 0, run = 0, dot = -1;
  for (int32_t j = h; j < e; j++) {
    if (t[j] == ':') return 0;
    if (t[j] == '.') {
      ipv4 = ipv4 && run >= 1;
      dot = j, dots++, run = 0;
    } else if (digit(t[j])) ipv4 = ipv4 && ++run <= 3;
    else ipv4 = 0;
  }
  if (ipv4 && dots == 3 && run >= 1) return 1;
  // The last label is [a-z]{2,63} (ALPHA_LOWER's ASCII letters).
  if (dot < 0 || e - dot - 1 < 2 || e - dot - 1 > 63) return 0;
  for (int32_t j = dot + 1; j < e; j++)
    if (t[j] < 'a' || t[j] > 'z') return 0;
  return 1;
}

/** Whether URL_MATCH may accept t[lo, hi): false only where url.ts's urlMatch surely is. */
static int url_possible(const uint16_t *t, int32_t lo, int32_t hi) {
  for (int32_t i = lo; i < hi; i++)
    if (t[i] >= 0x80) return 1; // \p{L}, \p{Nd} and the host class reach past ASCII: the JavaScript decides
  if (host_possible(t, lo, hi)) return 1;
  for (int32_t i = lo; i + 2 < hi; i++)
    if (t[i] == ':' && t[i + 1] == '/' && t[i + 2] == '/') {
      if (i - lo >= 2 && host_possible(t, i + 3, hi)) return 1;
      break;
    }
  for (int32_t q = lo + 1; q < hi; q++)
    if (t[q] == '@' && host_possible(t, q + 1, hi)) return 1;
  return 0;
}

/** matcher.ts's maySpellPattern: whether a run of the tokens (lengths from lo) may spell a special-case pattern. */
static int may_spell(const General *g, const uint16_t *t, int32_t lo, const int32_t *lengths, int32_t n) {
  for (int32_t i = 0, a = lo; i < n; a += lengths[i++]) {
    uint32_t h = 0;
    int32_t b = a;
    for (int32_t j = i; j < n; j++) {
      int32_t e = b + lengths[j];
      if (e - a > g->longestPattern) break;
      for (; b < e; b++) h = h * 31u + t[b];
      if (may_have(&g->texts, h, b - a)) return 1;
    }
  }
  return 0;
}

int32_t general_lengths(const General *g, const uint16_t *t, int32_t lo, int32_t hi, int32_t *out) {
  if (hi - lo > GENERAL_MAX) return -1;
  for (int32_t i = lo; i < hi; i++)
    if (is_high(t[i]) || is_low(t[i])) return -1;
  const int32_t from = lo;
  int32_t suffixes[GENERAL_MAX];
  int32_t n = 0, ns = 0, last = -1;
  // splitChunk: where it would look a special case up, the JavaScript takes over.
  while (hi > lo && hi - lo != last) {
    if (maybe_special(g, t, lo, hi)) return -1;
    last = hi - lo;
    int32_t pre = find_prefix(g, t, lo, hi);
    if (pre && lo + pre < hi && maybe_special(g, t, lo + pre, hi)) return -1;
    int32_t suf = find_suffix(g, t, lo + pre, hi);
    if (suf && hi - suf > lo && maybe_special(g, t, lo, hi - suf)) return -1;
    if (pre && suf && pre + suf <= hi - lo) {
      out[n++] = pre, suffixes[ns++] = suf;
      lo += pre, hi -= suf;
    } else if (pre) {
      out[n++] = pre, lo += pre;
    } else if (suf) {
      suffixes[ns++] = suf, hi -= suf;
    }
  }
  if (hi > lo) {
    if (maybe_special(g, t, lo, hi)) return -1;
    int dot = 0;
    for (int32_t i = lo; i < hi && !dot; i++) dot = t[i] == '.';
    if (dot && url_possible(t, lo, hi)) return -1;
    n = infixes(g, t, lo, hi, out, n);
  }
  while (ns > 0) out[n++] = suffixes[--ns];
  // applySpecialMatcher changes nothing unless a run of tokens may spell a pattern.
  if (n > 1 && may_spell(g, t, from, out, n)) return -1;
  return n;
}

static uint32_t slot_of(uint32_t h) { return ((h ^ (h >> 15)) * 0x2c1b3c6du) & (CACHE_SLOTS - 1); }

const uint16_t *general_cached(const General *g, const uint16_t *key, int32_t len, int32_t *count) {
  if (len > CACHE_KEY || g->slots == NULL) return NULL;
  uint32_t h = hash_range(key, 0, len);
  for (uint32_t s = slot_of(h);; s = (s + 1) & (CACHE_SLOTS - 1)) {
    uint32_t e = g->slots[s];
    if (e == 0) return NULL;
    const uint16_t *entry = g->pool + e - 1;
    if (g->hashes[s] == h && entry[0] == len && memcmp(entry + 1, key, (size_t)len * 2) == 0) {
      *count = entry[1 + len];
      return entry + 2 + len;
    }
  }
}

void general_remember(General *g, const uint16_t *key, int32_t len, const int32_t *lengths, int32_t count, int absent) {
  if (len > CACHE_KEY || len <= 0 || count <= 0 || count > len) return;
  int32_t dummy;
  if (!absent && general_cached(g, key, len, &dummy) != NULL) return;
  if (g->slots == NULL || g->entries >= CACHE_MAX) {
    // Emptied when full, like cache.ts's: a probe always ends at an empty slot soon.
    if (g->slots == NULL) {
      g->slots = calloc(CACHE_SLOTS, sizeof(uint32_t));
      g->hashes = malloc(CACHE_SLOTS * sizeof(uint32_t));
      if (g->slots == NULL || g->hashes == NULL) {
        free(g->slots), free(g->hashes);
        g->slots = NULL, g->hashes = NULL;
        return;
      }
    } else memset(g->slots, 0, CACHE_SLOTS * sizeof(uint32_t));
    g->entries = 0, g->pused = 0;
  }
  size_t need = g->pused + 2 + (size_t)len + (size_t)count;
  if (need > g->pcap) {
    size_t cap = g->pcap * 2 > need ? g->pcap * 2 : need + 65536;
    uint16_t *grown = realloc(g->pool, cap * 2);
    if (grown == NULL) return;
    g->pool = grown, g->pcap = cap;
  }
  uint16_t *entry = g->pool + g->pused;
  entry[0] = (uint16_t)len;
  memcpy(entry + 1, key, (size_t)len * 2);
  entry[1 + len] = (uint16_t)count;
  for (int32_t k = 0; k < count; k++) entry[2 + len + k] = (uint16_t)lengths[k];
  uint32_t h = hash_range(key, 0, len), s = slot_of(h);
  while (g->slots[s] != 0) s = (s + 1) & (CACHE_SLOTS - 1);
  g->slots[s] = (uint32_t)g->pused + 1;
  g->hashes[s] = h;
  g->pused = need;
  g->entries++;
}

static void list_free(List *l) {
  free(l->units);
  free(l->at);
}

void general_free(General *g) {
  if (g == NULL) return;
  free(g->texts.slots);
  list_free(&g->sufMulti), list_free(&g->currency), list_free(&g->units), list_free(&g->hyphens);
  free(g->slots), free(g->hashes), free(g->pool);
  free(g);
}

/** A space-separated list of strings (none empty, none with a surrogate) into l; 0 when it does not parse. */
static int read_list(napi_env env, napi_value v, List *l) {
  size_t n;
  if (napi_get_value_string_utf16(env, v, NULL, 0, &n) != napi_ok || n == 0 || n > 4096) return 0;
  uint16_t *s = utf16_copy(env, v, n);
  if (s == NULL) return 0;
  l->units = s;
  l->at = malloc((n + 2) * sizeof(int32_t));
  if (l->at == NULL) return 0;
  // Entries are packed in place: the separators are dropped as the units move down.
  int32_t w = 0, k = 0;
  l->at[0] = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i == n || s[i] == ' ') {
      if (w == l->at[k]) return 0;
      l->at[++k] = w;
      continue;
    }
    if (is_high(s[i]) || is_low(s[i])) return 0;
    s[w++] = s[i];
  }
  l->n = k;
  return 1;
}

General *general_new(napi_env env, napi_value tables, napi_value params, napi_value texts, napi_value lists, const Filter *specials, int32_t longestRule) {
  int32_t *p;
  size_t np, nt;
  uint32_t count;
  napi_value v;
  int ok = typed(env, params, napi_int32_array, (void **)&p, &np) && np >= 3 && p[1] >= 1 && p[1] <= 64 && p[2] >= 0;
  ok = ok && napi_get_array_length(env, tables, &count) == napi_ok && count == G_TABLES;
  ok = ok && napi_get_array_length(env, lists, &count) == napi_ok && count == 4;
  if (!ok) return NULL;
  General *g = calloc(1, sizeof(General));
  if (g == NULL) return NULL;
  g->en = p[0] != 0, g->maxFixed = p[1], g->longestPattern = p[2];
  g->specials = specials, g->longestRule = longestRule;
  for (uint32_t k = 0; k < G_TABLES; k++) {
    uint8_t *bits;
    if (napi_get_element(env, tables, k, &v) != napi_ok || !typed(env, v, napi_uint8_array, (void **)&bits, &nt) || nt != 0x10000) {
      general_free(g);
      return NULL;
    }
    for (size_t c = 0; c < 0x10000; c++)
      if (bits[c]) g->cls[c] |= (uint16_t)(1u << k);
  }
  // affixes.ts's DOT_AFTER: ALPHA_LOWER, the PUNCT class, the quotes and the characters it names (² among them).
  const char *extra = "0123456789%-+(?:)";
  for (const char *e = extra; *e; e++) g->cls[(uint8_t)*e] |= G_DOTA;
  g->cls[0xb2] |= G_DOTA;
  for (size_t c = 0; c < 0x10000; c++)
    if (g->cls[c] & (G_ALOW | G_PUNCT | G_Q)) g->cls[c] |= G_DOTA;
  // The matcher's texts filter: a power of two long, with an empty slot (a full table would never end a probe).
  int32_t *slots;
  ok = typed(env, texts, napi_int32_array, (void **)&slots, &nt) && nt > 0 && (nt & (nt - 1)) == 0 && (g->texts.slots = malloc(nt * 4)) != NULL;
  if (ok) {
    memcpy(g->texts.slots, slots, nt * 4);
    g->texts.mask = (uint32_t)nt - 1;
    ok = 0;
    for (size_t k = 0; k < nt && !ok; k++) ok = slots[k] == 0;
  }
  List *ls[4] = {&g->sufMulti, &g->currency, &g->units, &g->hyphens};
  for (uint32_t k = 0; k < 4 && ok; k++) ok = napi_get_element(env, lists, k, &v) == napi_ok && read_list(env, v, ls[k]);
  if (!ok) {
    general_free(g);
    return NULL;
  }
  return g;
}
