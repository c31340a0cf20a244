// What spacy.c and spacy-general.c share: the special cases' hash filters and the general path's entry points.
#ifndef SPACY_H
#define SPACY_H
#include <stdint.h>

/** A HashFilter (plain.ts): open addressing over hashFinish values, 0 empty. */
typedef struct {
  int32_t *slots;
  uint32_t mask;
} Filter;

/** plain.ts's hashFinish: Math.imul(h ^ len, 0x9e3779b1) | 1. */
static inline int32_t finish(uint32_t h, int32_t len) { return (int32_t)((h ^ (uint32_t)len) * 0x9e3779b1u) | 1; }

/** HashFilter.mayHave: whether a string of `len` units whose hashRange is h may be one of the keys. */
static inline int may_have(const Filter *f, uint32_t h, int32_t len) {
  int32_t v = finish(h, len);
  for (uint32_t slot = (uint32_t)v & f->mask;; slot = (slot + 1) & f->mask) {
    int32_t s = f->slots[slot];
    if (s == v) return 1;
    if (s == 0) return 0;
  }
}

/** The general path's tables and its chunk cache (spacy-general.c). */
typedef struct General General;

/** Longest chunk the general path takes on (longer ones are the JavaScript's; they are rare and seldom repeat). */
#define GENERAL_MAX 256

/**
 * Token lengths of the chunk t[lo, hi) into out (room for GENERAL_MAX), as tokenizer.ts's `lengths` gives them; their
 * number, or -1 where the JavaScript must decide (see spacy-general.c).
 */
int32_t general_lengths(const General *g, const uint16_t *t, int32_t lo, int32_t hi, int32_t *out);
/** The cached token lengths of the chunk key[0, len), and their number in *count; NULL when not cached. */
const uint16_t *general_cached(const General *g, const uint16_t *key, int32_t len, int32_t *count);
/**
 * Caches the chunk's token lengths (chunks longer than the cache's keys are left out); `absent` when the caller has
 * just missed it in the cache (else it is looked up first: a text may repeat a chunk the JavaScript split).
 */
void general_remember(General *g, const uint16_t *key, int32_t len, const int32_t *lengths, int32_t count, int absent);
void general_free(General *g);
/**
 * The general path from its tables (spacyScanner's arguments 4–7; assay.h first for the Node-API types), or NULL when
 * they do not fit. `specials` is the scanner's filter, which outlives it.
 */
General *general_new(napi_env env, napi_value tables, napi_value params, napi_value texts, napi_value lists, const Filter *specials, int32_t longestRule);
#endif
