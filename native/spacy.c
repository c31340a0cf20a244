// spaCy's tokenizer, its first pass in C: text/spacy/tokenizer.ts's `scan` and fast-chunk.ts's `plainChunk`.
//
// The pass finds whitespace runs and chunks; a chunk of plain words (plainChunk's shape) is split here, any other
// goes the general way: from the chunk cache or spacy-general.c when they can settle it, else marked for the
// JavaScript's general path (affix rules, special cases, URLs, infixes), which stays the reference.
// The unit classes and the special cases' hash filters are the JavaScript's own arrays, copied once; every step
// below repeats the JavaScript one for one, and the tests compare the two on every entry.
#include "assay.h"
#include "spacy.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t cls[0x10000];
  /* plain.ts's class bits, passed in so that the two files cannot disagree about them. */
  uint8_t plain, inner, open, close, dotAfter, space, alpha;
  int32_t longest;
  Filter specials, oneToken;
  /* The text's units, kept from call to call: a fresh buffer per text would fault its pages in again each time. */
  uint16_t *text;
  size_t textCap;
  /* spacyWords' table, kept likewise: slot = 1 + word id, 0 empty; whash per id. */
  int32_t *wslot;
  uint32_t *whash;
  size_t wslotCap;
  /* The general path and its cache (NULL: every other chunk is marked), and the last scan's marked chunks (start,
   * length, and their units from `pendUnits`), which spacyExpand caches with the JavaScript's lengths. */
  General *general;
  const int32_t *pendFor; /* the starts array the notes belong to: a nested scan's notes are not another's */
  int32_t *pend;
  uint32_t pendN, pendCap;
  uint16_t *pendUnits;
  size_t pendUsed, pendUnitsCap;
} Scanner;

/** Where `scan` writes: entry k is [starts[k], ends[k]), or ~end (negative) for a marked chunk. */
typedef struct {
  int32_t *starts, *ends;
  uint32_t length;
  /* The indices of the marked entries, and their number. */
  int32_t *markedAt;
  uint32_t marked;
} Out;

static inline void push(Out *o, int32_t a, int32_t b) {
  o->starts[o->length] = a;
  o->ends[o->length++] = b;
}

/** fast-chunk.ts's closes: whether text[i] (i > 0) is a one-unit suffix. */
static int closes(const Scanner *s, const uint16_t *t, int32_t i) {
  uint16_t u = t[i];
  return (s->cls[u] & s->close) != 0 || (u == 0x2e && (s->cls[t[i - 1]] & s->dotAfter) != 0);
}

/** isApostropheS: text[, end) ends with `'s` or `’s`; units before the text's start read as no unit (JavaScript's NaN). */
static int apostrophe_s(const uint16_t *t, int32_t end) {
  if (end < 2) return 0;
  uint16_t last = t[end - 1], before = t[end - 2];
  return (last == 0x73 || last == 0x53) && (before == 0x27 || before == 0x2019);
}

/** spellsSpecial: whether a special case may spell the core or a run of tokens, or a one-token pattern one token. */
static int spells_special(const Scanner *s, const uint16_t *t, const Out *o, uint32_t from, uint32_t coreFrom, uint32_t coreTo) {
  for (uint32_t k = from; k < o->length; k++) {
    int32_t a = o->starts[k];
    uint32_t h = 0;
    for (uint32_t u = k; u < o->length; u++) {
      int32_t e = o->ends[u];
      if (e - a > s->longest) break;
      for (int32_t b = o->starts[u]; b < e; b++) h = h * 31u + t[b];
      int single = u == k && !(k == coreFrom && u + 1 == coreTo);
      if (may_have(single ? &s->oneToken : &s->specials, h, e - a)) return 1;
    }
  }
  return 0;
}

/** plainChunk: the chunk at `a` split into `o` when it has the plain shape; its end, or -1 having pushed nothing. */
static int32_t plain_chunk(const Scanner *s, const uint16_t *t, int32_t n, int32_t a, Out *o) {
  const uint8_t *cls = s->cls;
  uint32_t from = o->length;
  int32_t i = a;
  if ((cls[t[i]] & s->open) != 0) push(o, a, ++i);
  if (i == n || (cls[t[i]] & s->plain) == 0) goto undo;
  uint32_t coreFrom = o->length;
  int32_t seg = i, end = i;
  uint32_t h = 0, run = 0;
  for (; i < n; i++) {
    uint16_t u = t[i];
    uint8_t k = cls[u];
    if ((k & s->plain) != 0) end = i + 1;
    else if ((k & s->inner) == 0) {
      if (u != 0x2d || end != i || (cls[t[i - 1]] & s->alpha) == 0) break;
      if (i + 1 == n || (cls[t[i + 1]] & (s->alpha | s->plain)) != (s->alpha | s->plain)) break;
      push(o, seg, i);
      push(o, i, i + 1);
      seg = i + 1;
    }
    run = run * 31u + u;
    if (end == i + 1) h = run;
  }
  int32_t core = apostrophe_s(t, end) ? end - 2 : end;
  if (core < end && (core - seg < 1 || (cls[t[core - 1]] & s->plain) == 0)) goto undo;
  if (core < end && core - seg >= 2 && apostrophe_s(t, core)) goto undo;
  push(o, seg, core);
  uint32_t coreTo = o->length;
  if (core < end) push(o, core, end);
  i = end;
  for (int c = 0; c < 2 && i < n && closes(s, t, i); c++, i++) push(o, i, i + 1);
  if (i < n && cls[t[i]] != s->space) goto undo;
  if (o->length - from == 1 ? may_have(&s->specials, h, end - a) : spells_special(s, t, o, from, coreFrom, coreTo)) goto undo;
  return i;
undo:
  o->length = from;
  return -1;
}

/** Notes the marked chunk t[a, a + len) for spacyExpand to cache; 0 when out of memory (it is then not cached). */
static int pend(Scanner *s, const uint16_t *t, int32_t a, int32_t len) {
  if (len > 64) return 1;
  if (s->pendN * 2 + 2 > s->pendCap) {
    uint32_t cap = s->pendCap * 2 + 64;
    int32_t *p = realloc(s->pend, cap * sizeof(int32_t));
    if (p == NULL) return 0;
    s->pend = p, s->pendCap = cap;
  }
  if (s->pendUsed + (size_t)len > s->pendUnitsCap) {
    size_t cap = s->pendUnitsCap * 2 + 4096;
    uint16_t *u = realloc(s->pendUnits, cap * 2);
    if (u == NULL) return 0;
    s->pendUnits = u, s->pendUnitsCap = cap;
  }
  s->pend[2 * s->pendN] = a, s->pend[2 * s->pendN + 1] = len;
  s->pendN++;
  memcpy(s->pendUnits + s->pendUsed, t + a, (size_t)len * 2);
  s->pendUsed += (size_t)len;
  return 1;
}

/** The chunk t[a, b) as tokens from the cache or the C general path; 0 when neither settles it. */
static int general_chunk(Scanner *s, const uint16_t *t, int32_t a, int32_t b, Out *o) {
  int32_t count, lengths[GENERAL_MAX];
  const uint16_t *cached = general_cached(s->general, t + a, b - a, &count);
  if (cached != NULL) {
    for (int32_t k = 0, at = a; k < count; at += cached[k++]) push(o, at, at + cached[k]);
    return 1;
  }
  count = general_lengths(s->general, t, a, b, lengths);
  if (count < 0) return 0;
  for (int32_t k = 0, at = a; k < count; at += lengths[k++]) push(o, at, at + lengths[k]);
  general_remember(s->general, t + a, b - a, lengths, count, 1);
  return 1;
}

/** scan: whitespace runs and plain chunks as entries, others from the general path in C or marked. */
static void scan(Scanner *s, const uint16_t *t, int32_t n, Out *o) {
  s->pendN = 0, s->pendUsed = 0, s->pendFor = o->starts;
  int ok = 1;
  int32_t i = 0;
  while (i < n) {
    int32_t a = i;
    if (s->cls[t[i]] == s->space) {
      while (++i < n && s->cls[t[i]] == s->space);
      push(o, a, i);
      continue;
    }
    i = plain_chunk(s, t, n, a, o);
    if (i < 0) {
      i = a + 1;
      while (i < n && s->cls[t[i]] != s->space) i++;
      if (s->general == NULL || !general_chunk(s, t, a, i, o)) {
        o->markedAt[o->marked++] = (int32_t)o->length;
        push(o, a, ~i);
        if (s->general != NULL && ok) ok = pend(s, t, a, i - a);
      }
    }
    if (i < n && t[i] == 0x20) i++;
  }
}

static void scanner_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Scanner *s = data;
  free(s->specials.slots);
  free(s->oneToken.slots);
  free(s->text);
  free(s->wslot);
  free(s->whash);
  general_free(s->general);
  free(s->pend);
  free(s->pendUnits);
  free(s);
}

/** A filter's slots, copied; 0 when `v` is not an Int32Array whose length is a power of two. */
static int read_filter(napi_env env, napi_value v, Filter *f) {
  int32_t *slots;
  size_t n;
  if (!typed(env, v, napi_int32_array, (void **)&slots, &n) || n == 0 || (n & (n - 1)) != 0 || n > 0x40000000) return 0;
  f->slots = malloc(n * sizeof(int32_t));
  if (f->slots == NULL) return 0;
  memcpy(f->slots, slots, n * sizeof(int32_t));
  f->mask = (uint32_t)n - 1;
  // A full table would never end a probe for an absent key.
  for (size_t k = 0; k < n; k++)
    if (slots[k] == 0) return 1;
  return 0;
}

/**
 * spacyScanner(classes Uint8Array(65536), bits Int32Array [PLAIN, INNER, OPEN, CLOSE, DOT_AFTER, SPACE, ALPHA,
 * longest], specials Int32Array, oneToken Int32Array[, tables Uint8Array(65536)[10], params Int32Array [en, max
 * fixed suffix, longest pattern], texts Int32Array, lists string[4]]) → handle. With the last four (affixes.ts's
 * generalPathData), chunks the fast path leaves go through spacy-general.c first.
 */
napi_value spacy_scanner(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *cls;
  int32_t *bits;
  size_t ncls, nbits;
  if (argc < 4 || !typed(env, argv[0], napi_uint8_array, (void **)&cls, &ncls) || ncls != 0x10000) return fail(env, "spacyScanner: classes");
  if (!typed(env, argv[1], napi_int32_array, (void **)&bits, &nbits) || nbits < 8) return fail(env, "spacyScanner: bits");
  for (int k = 0; k < 7; k++)
    if (bits[k] <= 0 || bits[k] > 255) return fail(env, "spacyScanner: bits");
  Scanner *s = calloc(1, sizeof(Scanner));
  if (s == NULL) return fail(env, "spacyScanner: out of memory");
  memcpy(s->cls, cls, sizeof s->cls);
  s->plain = (uint8_t)bits[0], s->inner = (uint8_t)bits[1], s->open = (uint8_t)bits[2], s->close = (uint8_t)bits[3];
  s->dotAfter = (uint8_t)bits[4], s->space = (uint8_t)bits[5], s->alpha = (uint8_t)bits[6], s->longest = bits[7];
  if (!read_filter(env, argv[2], &s->specials) || !read_filter(env, argv[3], &s->oneToken)) {
    scanner_free(env, s, NULL);
    return fail(env, "spacyScanner: a hash filter (its length a power of two, with an empty slot)");
  }
  if (argc >= 8 && (s->general = general_new(env, argv[4], argv[5], argv[6], argv[7], &s->specials, s->longest)) == NULL) {
    scanner_free(env, s, NULL);
    return fail(env, "spacyScanner: the general path's tables");
  }
  napi_value out;
  if (napi_create_external(env, s, scanner_free, NULL, &out) != napi_ok) {
    scanner_free(env, s, NULL);
    return NULL;
  }
  return out;
}

/** The text's units into s->text (grown as needed); 0 when out of memory or not a string. */
static int read_text(napi_env env, napi_value v, Scanner *s, size_t n) {
  if (n + 1 > s->textCap) {
    size_t cap = s->textCap * 2 > n + 1 ? s->textCap * 2 : n + 1 + 4096;
    uint16_t *grown = realloc(s->text, cap * sizeof(uint16_t));
    if (grown == NULL) return 0;
    s->text = grown;
    s->textCap = cap;
  }
  size_t copied;
  return napi_get_value_string_utf16(env, v, (char16_t *)s->text, n + 1, &copied) == napi_ok && copied == n;
}

/**
 * spacyScan(handle, text string, starts Int32Array, ends Int32Array, markedAt Int32Array) → entries; markedAt[0]
 * receives the number of marked chunks and markedAt[1..] their entries' indices. Each array needs room for
 * text.length entries (markedAt one more): every entry covers one unit or more.
 */
napi_value spacy_scan(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scanner *s;
  Out o = {0};
  size_t n, ns, ne, nm;
  int32_t *markedAt;
  if (argc < 5 || napi_get_value_external(env, argv[0], (void **)&s) != napi_ok) return fail(env, "spacyScan: handle");
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &n) != napi_ok) return fail(env, "spacyScan: text");
  if (n > 0x3fffffff) return fail(env, "spacyScan: text too long");
  if (!typed(env, argv[2], napi_int32_array, (void **)&o.starts, &ns) || !typed(env, argv[3], napi_int32_array, (void **)&o.ends, &ne) ||
      !typed(env, argv[4], napi_int32_array, (void **)&markedAt, &nm) || ns < n || ne < n || nm < n + 1)
    return fail(env, "spacyScan: the offset arrays need room for one entry per unit of the text");
  if (!read_text(env, argv[1], s, n)) return fail(env, "spacyScan: text (or out of memory)");
  o.markedAt = markedAt + 1;
  scan(s, s->text, (int32_t)n, &o);
  markedAt[0] = (int32_t)o.marked;
  napi_value out;
  CHECK(napi_create_int32(env, (int32_t)o.length, &out));
  return out;
}

/**
 * spacyExpand(starts Int32Array, ends Int32Array, entries, lengths Int32Array, outStarts Int32Array, outEnds
 * Int32Array[, handle]) → tokens: tokenizer.ts's splitMarked. The scan's entries are copied, each marked one (end ~e)
 * replaced by its chunk's tokens, whose lengths come next in `lengths` as [count, length...]. Everything is checked:
 * the lengths must tile each marked chunk, and the tokens must fit the output arrays. With the scanner's handle, the
 * marked chunks its last scan noted are cached with these lengths.
 */
napi_value spacy_expand(napi_env env, napi_callback_info info) {
  size_t argc = 7;
  napi_value argv[7];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t *starts, *ends, *lens, *os, *oe;
  size_t ns, ne, nl, nos, noe;
  uint32_t entries;
  if (argc < 6 || !typed(env, argv[0], napi_int32_array, (void **)&starts, &ns) || !typed(env, argv[1], napi_int32_array, (void **)&ends, &ne) ||
      napi_get_value_uint32(env, argv[2], &entries) != napi_ok || entries > ns || entries > ne)
    return fail(env, "spacyExpand: entries");
  if (!typed(env, argv[3], napi_int32_array, (void **)&lens, &nl)) return fail(env, "spacyExpand: lengths");
  if (!typed(env, argv[4], napi_int32_array, (void **)&os, &nos) || !typed(env, argv[5], napi_int32_array, (void **)&oe, &noe) || nos != noe)
    return fail(env, "spacyExpand: output");
  Scanner *s = NULL;
  if (argc >= 7 && napi_get_value_external(env, argv[6], (void **)&s) != napi_ok) return fail(env, "spacyExpand: handle");
  if (s != NULL && s->pendFor != starts) s = NULL;
  uint32_t pj = 0;
  size_t units = 0;
  size_t at = 0, l = 0;
  for (uint32_t k = 0; k < entries; k++) {
    int32_t a = starts[k], b = ends[k];
    if (b >= 0) {
      if (at >= nos) return fail(env, "spacyExpand: output too short");
      os[at] = a, oe[at++] = b;
      continue;
    }
    if (l >= nl || lens[l] < 0 || (size_t)lens[l] > nl - l - 1) return fail(env, "spacyExpand: lengths too short");
    int32_t count = lens[l++], from = a, end = ~b;
    const int32_t *chunk = lens + l;
    for (int32_t t = 0; t < count; t++) {
      int32_t len = lens[l++];
      if (len < 0 || len > end - from) return fail(env, "spacyExpand: lengths do not tile the chunk");
      if (at >= nos) return fail(env, "spacyExpand: output too short");
      os[at] = from, oe[at++] = from + len;
      from += len;
    }
    if (from != end) return fail(env, "spacyExpand: lengths do not tile the chunk");
    // The scan noted its marked chunks in order, those short enough to cache: this one if the next note is it.
    if (s != NULL && s->general != NULL && pj < s->pendN && s->pend[2 * pj] == a && s->pend[2 * pj + 1] == end - a) {
      general_remember(s->general, s->pendUnits + units, end - a, chunk, count, 0);
      units += (size_t)(end - a);
      pj++;
    }
  }
  napi_value out;
  CHECK(napi_create_uint32(env, (uint32_t)at, &out));
  return out;
}

/** Whether word id `w` (its units at chars[starts[w], starts[w + 1])) has the units chars[from, to). */
static int same_word(const uint16_t *chars, const int32_t *wstarts, const int32_t *first, int32_t id, int32_t from, int32_t to) {
  int32_t w = first[id], a = wstarts[w];
  return wstarts[w + 1] - a == to - from && memcmp(chars + a, chars + from, (size_t)(to - from) * sizeof(uint16_t)) == 0;
}

/**
 * spacyWords(handle, text string, starts Int32Array, ends Int32Array, ids Int32Array, cpLens Int32Array, first
 * Int32Array, wordStarts Int32Array, chars Uint16Array) → [words, distinct words]: datatrove/word-ids.ts's Builder
 * over the tokens that do not start with whitespace (split_into_words). Ids are given in first-seen order, so they
 * are the JavaScript's whatever the hash; every token and every output is checked against its array.
 */
napi_value spacy_words(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scanner *s;
  int32_t *starts, *ends, *ids, *cpLens, *first, *wstarts;
  uint16_t *chars;
  size_t n, ns, ne, nids, ncp, nfirst, nws, nchars;
  if (argc < 9 || napi_get_value_external(env, argv[0], (void **)&s) != napi_ok) return fail(env, "spacyWords: handle");
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "spacyWords: text");
  if (!typed(env, argv[2], napi_int32_array, (void **)&starts, &ns) || !typed(env, argv[3], napi_int32_array, (void **)&ends, &ne) || ns != ne)
    return fail(env, "spacyWords: token offsets");
  if (!typed(env, argv[4], napi_int32_array, (void **)&ids, &nids) || !typed(env, argv[5], napi_int32_array, (void **)&cpLens, &ncp) ||
      !typed(env, argv[6], napi_int32_array, (void **)&first, &nfirst) || !typed(env, argv[7], napi_int32_array, (void **)&wstarts, &nws) ||
      !typed(env, argv[8], napi_uint16_array, (void **)&chars, &nchars) || nids < ns || ncp < ns || nfirst < ns || nws < ns + 1)
    return fail(env, "spacyWords: the output arrays need room for every token");
  if (!read_text(env, argv[1], s, n)) return fail(env, "spacyWords: text (or out of memory)");
  size_t cap = 1024;
  while (cap < ns * 2) cap *= 2;
  // Both sized together: cap slots, and ids (at most ns < cap) in whash.
  if (cap > s->wslotCap) {
    free(s->wslot);
    free(s->whash);
    s->wslot = malloc(cap * sizeof(int32_t));
    s->whash = malloc(cap * sizeof(uint32_t));
    s->wslotCap = s->wslot == NULL || s->whash == NULL ? 0 : cap;
  }
  if (s->wslotCap == 0) return fail(env, "spacyWords: out of memory");
  memset(s->wslot, 0, cap * sizeof(int32_t));
  const uint32_t mask = (uint32_t)cap - 1;
  const uint16_t *t = s->text;
  int32_t count = 0, vocab = 0, p = 0;
  wstarts[0] = 0;
  for (size_t k = 0; k < ns; k++) {
    int32_t a = starts[k], b = ends[k];
    if (a < 0 || a > b || (size_t)b > n) return fail(env, "spacyWords: a token is outside the text");
    // As the JavaScript reads it: the unit at a, none (not whitespace) at the text's end.
    if ((size_t)a < n && s->cls[t[a]] == s->space) continue;
    if ((size_t)p + (size_t)(b - a) > nchars) return fail(env, "spacyWords: chars is shorter than the words");
    int32_t from = p;
    uint32_t h = 0x811c9dc5u;
    for (int32_t i = a; i < b; i++) {
      chars[p++] = t[i];
      h = (h ^ t[i]) * 0x01000193u;
    }
    wstarts[count + 1] = p;
    uint32_t slot = ((h ^ (h >> 16)) * 0x85ebca6bu) & mask;
    int32_t id = -1;
    for (int32_t e = s->wslot[slot]; e != 0; slot = (slot + 1) & mask, e = s->wslot[slot])
      if (s->whash[e - 1] == h && same_word(chars, wstarts, first, e - 1, from, p)) {
        id = e - 1;
        break;
      }
    if (id < 0) {
      id = vocab++;
      s->wslot[slot] = id + 1;
      s->whash[id] = h;
      first[id] = count;
      int32_t cp = p - from;
      for (int32_t i = from; i < p - 1; i++)
        if ((chars[i] & 0xfc00) == 0xd800 && (chars[i + 1] & 0xfc00) == 0xdc00) cp--, i++;
      cpLens[id] = cp;
    }
    ids[count++] = id;
  }
  napi_value out, v;
  CHECK(napi_create_array_with_length(env, 2, &out));
  CHECK(napi_create_int32(env, count, &v));
  CHECK(napi_set_element(env, out, 0, v));
  CHECK(napi_create_int32(env, vocab, &v));
  CHECK(napi_set_element(env, out, 1, v));
  return out;
}
