// c4_quality's line loop in C: datatrove/c4-quality.ts's c4Quality for HEAD's split lines, step for step.
//
// Like gopher-quality.c, this saves mostly compilation. A kept line with citations cut out is counted by the
// JavaScript, which tokenizes the edited line (it is listed for it). A document the C does not follow exactly goes back
// to the JavaScript whole: İ or the Kelvin sign (they lower to ASCII), a token that is not plain and holds a surrogate
// (the sentence rules' sets reach beyond the BMP).
#include "assay.h"
#include <stdlib.h>
#include <string.h>

enum { IS_P = 1, SENT_END = 2 };

typedef struct {
  /* Per BMP unit: IS_P (\p{P}), SENT_END (a one-unit entry of spaCy's Sentencizer.default_punct_chars). */
  uint8_t cls[0x10000];
  /* Unicode Nd beyond ASCII as [lo, hi] code point pairs (the citations' \p{Nd}). */
  int32_t *nd;
  int32_t ndPairs;
} Classes;

static void classes_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Classes *c = data;
  free(c->nd);
  free(c);
}

/**
 * c4QualityTables(punct Uint16Array, sentenceEnds Uint16Array, nd Int32Array) → handle: \p{P} as [lo, hi] unit pairs
 * ascending, the one-unit sentence ends, Unicode Nd as [lo, hi] code point pairs ascending (nd-ranges.ts).
 */
napi_value c4_quality_tables(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint16_t *p, *ends;
  int32_t *nd;
  size_t np, nends, nnd;
  if (argc < 3 || !typed(env, argv[0], napi_uint16_array, (void **)&p, &np) || np % 2 != 0) return fail(env, "c4QualityTables: punctuation");
  for (size_t k = 0; k < np; k += 2)
    if (p[k] > p[k + 1] || (k > 0 && p[k] <= p[k - 1])) return fail(env, "c4QualityTables: punctuation");
  if (!typed(env, argv[1], napi_uint16_array, (void **)&ends, &nends)) return fail(env, "c4QualityTables: sentence ends");
  if (!typed(env, argv[2], napi_int32_array, (void **)&nd, &nnd) || nnd % 2 != 0) return fail(env, "c4QualityTables: digits");
  for (size_t k = 0; k < nnd; k += 2)
    if (nd[k] > nd[k + 1] || (k > 0 && nd[k] <= nd[k - 1])) return fail(env, "c4QualityTables: digits");
  Classes *c = calloc(1, sizeof(Classes));
  int32_t *copy = malloc((nnd + 1) * sizeof(int32_t));
  if (c == NULL || copy == NULL) {
    free(c);
    free(copy);
    return fail(env, "c4QualityTables: out of memory");
  }
  for (size_t k = 0; k < np; k += 2)
    for (uint32_t u = p[k]; u <= p[k + 1]; u++) c->cls[u] |= IS_P;
  for (size_t k = 0; k < nends; k++) c->cls[ends[k]] |= SENT_END;
  memset(c->cls + 0xd800, 0, 0x800);
  memcpy(copy, nd, nnd * sizeof(int32_t));
  c->nd = copy;
  c->ndPairs = (int32_t)(nnd / 2);
  napi_value out;
  if (napi_create_external(env, c, classes_free, NULL, &out) != napi_ok) {
    classes_free(env, c, NULL);
    return NULL;
  }
  return out;
}

static inline uint16_t ascii_lower(uint16_t c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/** Whether l[i, n) lowered starts with the lowercase ASCII phrase p. */
static int phrase_at(const uint16_t *l, int32_t i, int32_t n, const char *p) {
  for (; *p; p++, i++)
    if (i >= n || ascii_lower(l[i]) != (uint16_t)*p) return 0;
  return 1;
}

enum { P_LOREM = 1, P_JAVASCRIPT = 2, P_POLICY = 4 };

/**
 * Which of the phrases l[0, n) lowered holds (no İ or Kelvin sign in the text: nothing else lowers to ASCII), in one
 * pass: c4-quality.ts's POLICY ("terms of use", "privacy policy", "cookie policy", "uses cookies", "use of cookies",
 * "use cookies"), "lorem ipsum" and "javascript".
 */
static int phrases_in(const uint16_t *l, int32_t n) {
  int found = 0;
  for (int32_t i = 0; i + 1 < n; i++) {
    // Each phrase is told from the others by its first two letters: one comparison per phrase that can start here.
    uint16_t c = ascii_lower(l[i]), d = ascii_lower(l[i + 1]);
    if (c == 'l' && d == 'o') found |= phrase_at(l, i, n, "lorem ipsum") ? P_LOREM : 0;
    else if (c == 'j' && d == 'a') found |= phrase_at(l, i, n, "javascript") ? P_JAVASCRIPT : 0;
    else if (c == 't' && d == 'e') found |= phrase_at(l, i, n, "terms of use") ? P_POLICY : 0;
    else if (c == 'p' && d == 'r') found |= phrase_at(l, i, n, "privacy policy") ? P_POLICY : 0;
    else if (c == 'c' && d == 'o') found |= phrase_at(l, i, n, "cookie policy") ? P_POLICY : 0;
    else if (c == 'u' && d == 's' && phrase_at(l, i, n, "use"))
      found |= phrase_at(l, i, n, "uses cookies") || phrase_at(l, i, n, "use of cookies") || phrase_at(l, i, n, "use cookies") ? P_POLICY : 0;
  }
  return found;
}

static int has_unit(const uint16_t *t, int32_t a, int32_t b, uint16_t c) {
  for (int32_t i = a; i < b; i++)
    if (t[i] == c) return 1;
  return 0;
}

/** The code point at t[i] inside [i, b): a pair counts once, a lone half is itself. Its units in *w. */
static int32_t code_point(const uint16_t *t, int32_t i, int32_t b, int32_t *w) {
  if (is_high(t[i]) && i + 1 < b && is_low(t[i + 1])) {
    *w = 2;
    return pair_cp(t[i], t[i + 1]);
  }
  *w = 1;
  return t[i];
}

static int starts_with(const uint16_t *t, int32_t i, int32_t b, const char *w) {
  for (; *w; w++, i++)
    if (i >= b || t[i] != (uint16_t)*w) return 0;
  return 1;
}

/**
 * The CITATION matches (/\[\p{Nd}*\]|\[edit\]|\[citation needed\]/gu) of t[a, b), left to right, appended to cuts as
 * [start, end) pairs; their number.
 */
static int32_t citations(const Classes *c, const uint16_t *t, int32_t a, int32_t b, int32_t *cuts) {
  int32_t found = 0;
  for (int32_t i = a; i < b;) {
    int32_t end = -1;
    if (t[i] == '[') {
      int32_t j = i + 1, w, cp;
      while (j < b && ((cp = code_point(t, j, b, &w)) < 0x660 ? cp >= '0' && cp <= '9' : in_ranges(c->nd, c->ndPairs, cp))) j += w;
      if (j < b && t[j] == ']') end = j + 1;
      else if (starts_with(t, i, b, "[edit]")) end = i + 6;
      else if (starts_with(t, i, b, "[citation needed]")) end = i + 17;
    }
    if (end < 0) {
      i++;
      continue;
    }
    cuts[2 * found] = i;
    cuts[2 * found + 1] = end;
    found++;
    i = end;
  }
  return found;
}

/** sentences.ts's nextSentence over tokens [from, to); -1 when a token needs the JavaScript. */
static int32_t next_sentence(const Classes *c, const uint16_t *t, const int32_t *s, const int32_t *e, int32_t from, int32_t to) {
  int seen = 0;
  for (int32_t i = from; i < to; i++) {
    uint16_t u = t[s[i]];
    int plain = (u >= '0' && u <= '9') || ((u | 0x20) >= 'a' && (u | 0x20) <= 'z');
    int ends = 0, punct = 0;
    if (!plain) {
      punct = 1;
      for (int32_t k = s[i]; k < e[i]; k++) {
        if (is_high(t[k]) || is_low(t[k])) return -1;
        if (!(c->cls[t[k]] & IS_P)) punct = 0;
      }
      ends = e[i] - s[i] == 1 && (c->cls[u] & SENT_END);
    }
    if (seen && !ends && !punct) return i;
    if (ends) seen = 1;
  }
  return to;
}

/** sentenceCountOfTokens; -1 when a token needs the JavaScript. */
static int32_t sentence_count(const Classes *c, const uint16_t *t, const int32_t *s, const int32_t *e, int32_t from, int32_t to) {
  if (to <= from) return 0;
  int32_t n = 1;
  for (int32_t i = next_sentence(c, t, s, e, from, to); i < to; i = next_sentence(c, t, s, e, i, to)) {
    if (i < 0) return -1;
    n++;
  }
  return n;
}

enum { BRACKET = 1, BRACE = 2 };

/**
 * lines.ts's wordStats: str.split() words of t[a, b), and whether one has more than maxLen code points (maxLen < 0:
 * never); marks gets BRACKET when the line has a "[", BRACE when it has a "{" (one pass for the checks after).
 */
static int32_t words_of(const uint16_t *t, int32_t a, int32_t b, int32_t maxLen, int *tooLong, int *marks) {
  int32_t count = 0;
  *tooLong = 0;
  *marks = 0;
  for (int32_t i = a; i < b;) {
    if (is_py_ws(t[i])) {
      i++;
      continue;
    }
    int32_t start = i;
    for (; i < b && !is_py_ws(t[i]); i++) *marks |= t[i] == '[' ? BRACKET : t[i] == '{' ? BRACE : 0;
    count++;
    if (maxLen >= 0 && i - start > maxLen && (int32_t)cp_len(t, start, i) > maxLen) *tooLong = 1;
  }
  return count;
}

enum { REMOVE_CITATIONS, NO_TERMINAL, MIN_SENTENCES, MIN_WORDS, MAX_WORD, LOREM, JAVASCRIPT, CURLY, POLICY, OPTIONS };

/**
 * One judged line: the checks after the word counts, on the line as citations left it (l[0, n); cutting citations
 * neither adds nor removes a "{", so `brace` is the line's). 1 kept, 0 dropped.
 */
static int judge(const int32_t *o, const uint16_t *l, int32_t n, int brace, int *lorem, int *curly, int *curlyFirst) {
  if (o[NO_TERMINAL]) {
    uint16_t last = n > 0 ? l[n - 1] : 0;
    int ends = last == '.' || last == '?' || last == '!' || last == '"' || last == '\'';
    if (!ends || (n >= 3 && l[n - 2] == '.' && l[n - 3] == '.' && last == '.')) return 0;
  }
  int found = o[LOREM] || o[JAVASCRIPT] || o[POLICY] ? phrases_in(l, n) : 0;
  if (o[LOREM] && (found & P_LOREM)) {
    if (!*lorem && !*curly) *curlyFirst = 0;
    *lorem = 1;
    return 0;
  }
  if (o[JAVASCRIPT] && (found & P_JAVASCRIPT)) return 0;
  if (o[CURLY] && brace) {
    if (!*lorem && !*curly) *curlyFirst = 1;
    *curly = 1;
    return 0;
  }
  return !(o[POLICY] && (found & P_POLICY));
}

/**
 * c4Quality(handle, text, lines Int32Array, starts Int32Array, ends Int32Array, options Int32Array, units Int32Array,
 * info Float64Array, cuts Int32Array, edited Int32Array) → the rewritten text, or null for the JavaScript.
 * lines = splitlineOffsets' triples, starts/ends = the text's spaCy tokens, options = [remove_citations,
 * filter_no_terminal_punct, min_num_sentences, min_words_per_line, max_word_length, filter_lorem_ipsum,
 * filter_javascript, filter_curly_bracket, filter_policy]. units receives line-edits.c's rows, one per line (room for
 * 6 × lines); cuts the kept lines' citations as [start, end) pairs (room for the text's length); edited the kept lines
 * with citations cut, whose sentences and words the caller counts (room for a line each); info = [sentences, words of
 * the other kept lines, lorem ipsum, curly bracket, whether curly bracket came first, lines kept, cut pairs, edited lines].
 */
napi_value c4_quality(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Classes *cls;
  int32_t *lines, *s, *e, *o, *units, *cuts, *edited;
  double *res;
  size_t n, nlines, ns, ne, no, nunits, nres, ncuts, nedited;
  if (argc < 10 || napi_get_value_external(env, argv[0], (void **)&cls) != napi_ok) return fail(env, "c4Quality: handle");
  if (napi_get_value_string_utf16(env, argv[1], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "c4Quality: text");
  if (!typed(env, argv[2], napi_int32_array, (void **)&lines, &nlines) || nlines % 3 != 0) return fail(env, "c4Quality: lines");
  if (!typed(env, argv[3], napi_int32_array, (void **)&s, &ns) || !typed(env, argv[4], napi_int32_array, (void **)&e, &ne) || ns != ne) return fail(env, "c4Quality: tokens");
  if (!typed(env, argv[5], napi_int32_array, (void **)&o, &no) || no < OPTIONS) return fail(env, "c4Quality: options");
  if (!typed(env, argv[6], napi_int32_array, (void **)&units, &nunits) || nunits < nlines * 2) return fail(env, "c4Quality: units");
  if (!typed(env, argv[7], napi_float64_array, (void **)&res, &nres) || nres < 8) return fail(env, "c4Quality: info");
  if (!typed(env, argv[8], napi_int32_array, (void **)&cuts, &ncuts) || ncuts < n) return fail(env, "c4Quality: cuts");
  if (!typed(env, argv[9], napi_int32_array, (void **)&edited, &nedited) || nedited < nlines / 3) return fail(env, "c4Quality: edited");
  int32_t len = (int32_t)n, prev = 0;
  for (size_t k = 0; k < nlines; k += 3) {
    if (lines[k] < prev || lines[k] > lines[k + 1] || lines[k + 1] > lines[k + 2] || lines[k + 2] > len) return fail(env, "c4Quality: line offsets");
    prev = lines[k + 2];
  }
  for (size_t k = 0; k < ns; k++)
    if (s[k] < 0 || s[k] >= e[k] || e[k] > len || (k > 0 && s[k] < e[k - 1])) return fail(env, "c4Quality: token offsets");
  uint16_t *t = utf16_copy(env, argv[1], n);
  uint16_t *kept = malloc((n + 1) * sizeof(uint16_t));
  uint16_t *line = malloc((n + 1) * sizeof(uint16_t));
  if (t == NULL || kept == NULL || line == NULL) {
    free(t);
    free(kept);
    free(line);
    return fail(env, "c4Quality: text (or out of memory)");
  }
  int phrases = o[LOREM] || o[JAVASCRIPT] || o[POLICY];
  int ok = !(phrases && (has_unit(t, 0, len, 0x130) || has_unit(t, 0, len, 0x212a)));
  double sentences = 0, words = 0;
  int lorem = 0, curly = 0, curlyFirst = 0;
  int32_t linesKept = 0, cutPairs = 0, editedLines = 0, tok = 0;
  size_t keptLen = 0;
  for (size_t k = 0, r = 0; ok && k < nlines; k += 3, r += 6) {
    int32_t start = lines[k], a = start, b = lines[k + 1];
    while (a < b && is_py_ws(t[a])) a++;
    while (b > a && is_py_ws(t[b - 1])) b--;
    int32_t *u = units + r;
    u[0] = start, u[1] = lines[k + 1], u[2] = lines[k + 2], u[3] = a, u[4] = b, u[5] = 0;
    int tooLong, marks;
    int32_t count = words_of(t, a, b, o[MAX_WORD], &tooLong, &marks);
    if ((o[MAX_WORD] != -1 && tooLong) || count < o[MIN_WORDS]) continue;
    // The line as the checks read it: with its citations cut out, when there are any.
    const uint16_t *l = t + a;
    int32_t ln = b - a;
    int32_t found = o[REMOVE_CITATIONS] && (marks & BRACKET) ? citations(cls, t, a, b, cuts + 2 * cutPairs) : 0;
    if (found > 0) {
      ln = 0;
      for (int32_t i = a, c = 0; i < b; c++) {
        int32_t to = c < found ? cuts[2 * (cutPairs + c)] : b;
        memcpy(line + ln, t + i, (size_t)(to - i) * sizeof(uint16_t));
        ln += to - i;
        if (c < found) i = cuts[2 * (cutPairs + c) + 1];
        else break;
      }
      l = line;
    }
    if (!judge(o, l, ln, marks & BRACE, &lorem, &curly, &curlyFirst)) continue;
    if (found > 0) {
      // Kept with citations cut: the caller tokenizes the edited line; the document's tokens are not its tokens.
      cutPairs += found;
      edited[editedLines++] = (int32_t)(k / 3);
    } else {
      // The line's tokens: those starting in [a, b) (lines come in order, so one cursor serves them all).
      while (tok < (int32_t)ns && s[tok] < a) tok++;
      int32_t from = tok;
      while (tok < (int32_t)ns && s[tok] < b) tok++;
      if (o[MIN_SENTENCES] != -1) {
        int32_t c = sentence_count(cls, t, s, e, from, tok);
        if (c < 0) {
          ok = 0;
          break;
        }
        sentences += c > 1 ? c : 1;
      }
      for (int32_t i = from; i < tok; i++)
        if (!is_py_ws(t[s[i]])) words++;
    }
    u[5] = 1;
    if (linesKept++ > 0) kept[keptLen++] = '\n';
    memcpy(kept + keptLen, l, (size_t)ln * sizeof(uint16_t));
    keptLen += (size_t)ln;
  }
  napi_value result = NULL;
  if (ok) {
    // stripText of the kept lines joined by "\n".
    size_t x = 0, y = keptLen;
    while (x < y && is_py_ws(kept[x])) x++;
    while (y > x && is_py_ws(kept[y - 1])) y--;
    res[0] = sentences;
    res[1] = words;
    res[2] = lorem;
    res[3] = curly;
    res[4] = curlyFirst;
    res[5] = linesKept;
    res[6] = cutPairs;
    res[7] = editedLines;
    // A one-byte string where every unit fits (V8 keeps such text one byte per character, as it read it).
    int wide = 0;
    for (size_t i = x; i < y && !wide; i++) wide = kept[i] > 0xff;
    if (!wide) {
      char *bytes = (char *)line;
      for (size_t i = x; i < y; i++) bytes[i - x] = (char)kept[i];
      if (napi_create_string_latin1(env, bytes, y - x, &result) != napi_ok) result = NULL;
    } else if (napi_create_string_utf16(env, (const char16_t *)(kept + x), y - x, &result) != napi_ok)
      result = NULL;
  } else if (napi_get_null(env, &result) != napi_ok)
    result = NULL;
  free(t);
  free(kept);
  free(line);
  return result;
}
