// pii_regex_with_counts_fast_v2 in C: dolma/pii-scan.ts's e-mail and phone scanners and pii.ts's fastPiiSpans.
//
// The JavaScript stays the reference (and the path without the addon): this file repeats its steps one for one, on
// the text's UTF-16 units, so offsets are the JavaScript's. What it saves is mostly compilation: the scanners are
// small, but V8 spent a quarter of a fresh Dolma pass optimizing them. IPv4 matches come from the caller (one regex
// search of the whole text), as `fastPiiSpans` finds them.
#include "assay.h"
#include <stdlib.h>

enum { EMAIL = 0, PHONE = 1, IP = 2 };

typedef struct {
  const uint16_t *t;
  int32_t n;
  /* \d beyond ASCII: Unicode Nd as [lo, hi] code point pairs, ascending (the caller's table, tested against /\p{Nd}/u). */
  const int32_t *nd;
  int32_t ndPairs;
  /* The last candidate search: none in [memoFrom, memoAt), one at memoAt (or memoAt = n): pii-scan.ts's memo. */
  int32_t memoFrom, memoAt;
  /* Found spans as [type, start, end], counted past the room as well: the caller retries with more. */
  Triples found;
} Scan;

static void put(Scan *s, int32_t type, int32_t start, int32_t end) { triple_put(&s->found, type, start, end); }

static int32_t index_of(const Scan *s, uint16_t c, int32_t from) {
  for (int32_t i = from < 0 ? 0 : from; i < s->n; i++)
    if (s->t[i] == c) return i;
  return -1;
}

/* ---- e-mails: findEmails / emailTail ---- */

/** `[.\s@,?!;:)(]` */
static int is_p(uint16_t c) {
  return c == '.' || c == '@' || c == ',' || c == '?' || c == '!' || c == ';' || c == ':' || c == ')' || c == '(' || is_py_ws(c);
}
/** `[^\s@,?!;:)(]` */
static int is_d(uint16_t c) { return c == '.' || !is_p(c); }
/** `[^\s@]` */
static int is_a(uint16_t c) { return c != '@' && !is_py_ws(c); }

/** emailTail: the match's end and group 1's end after the "@" at `at`; 0 when no domain tail matches there. */
static int email_tail(const Scan *s, int32_t at, int32_t to, int32_t *end, int32_t *groupEnd) {
  const uint16_t *t = s->t;
  int32_t ds = at + 1, de = ds;
  while (de < to && is_d(t[de])) de++;
  int32_t m = de - ds;
  if (m == 0 || de >= to) return 0;
  if (m >= 2 && t[de - 1] == '.' && is_py_ws(t[de])) {
    *end = de + 1;
    *groupEnd = de - 1;
    return 1;
  }
  if (de + 1 < to && is_py_ws(t[de + 1])) {
    *end = de + 2;
    *groupEnd = de;
    return 1;
  }
  if (is_py_ws(t[de])) {
    *end = de + 1;
    *groupEnd = de;
    return 1;
  }
  return 0;
}

/** `text[start:end].strip() == "("`. */
static int stripped_is_paren(const uint16_t *t, int32_t start, int32_t end) {
  int seen = 0;
  for (int32_t i = start; i < end; i++) {
    if (is_py_ws(t[i])) continue;
    if (t[i] != '(' || seen) return 0;
    seen = 1;
  }
  return seen;
}

/** findEmails over [from, to), each match kept as fastPiiSpans keeps it (group 1 not "(" before its "@", a "." after). */
static void emails(Scan *s, int32_t from, int32_t to) {
  const uint16_t *t = s->t;
  int32_t pos = from;
  while (pos < to) {
    int32_t v = index_of(s, '@', pos + 1), tailEnd = 0, tailGroupEnd = 0;
    int found = 0;
    for (; v != -1 && v < to; v = index_of(s, '@', v + 1))
      if (is_a(t[v - 1]) && (found = email_tail(s, v, to, &tailEnd, &tailGroupEnd))) break;
    if (v == -1 || v >= to || !found) break;
    int32_t st = v - 1;
    while (st > pos && is_a(t[st - 1])) st--;
    while (st > pos && is_p(t[st - 1])) st--;
    int32_t p = st;
    while (p < to && is_p(t[p])) p++;
    int32_t r = p;
    while (r < to && is_a(t[r])) r++;
    int32_t groupStart = p;
    // t[r] is read where the JavaScript reads it: r ≤ to ≤ n, and t[n] is the copy's terminating 0.
    found = p < to && t[r] == '@' ? email_tail(s, r, to, &tailEnd, &tailGroupEnd) : 0;
    for (int32_t u = p - 1; !found && u > st; u--) {
      uint16_t c = t[u - 1];
      if (t[u] == '@' && is_a(c) && is_p(c) && (found = email_tail(s, u, to, &tailEnd, &tailGroupEnd))) groupStart = u - 1;
    }
    if (!found) break;
    int32_t at = index_of(s, '@', groupStart);
    int dot = 0;
    for (int32_t i = at + 1; i < tailGroupEnd; i++)
      if (t[i] == '.') dot = 1;
    if (!stripped_is_paren(t, groupStart, at) && dot) put(s, EMAIL, st, tailEnd);
    pos = tailEnd;
  }
}

/* ---- phones: findPhones / phoneTail / nextDigit ---- */

static int is_nd(const Scan *s, int32_t cp) {
  if (cp < 0x660) return cp >= '0' && cp <= '9';
  return in_ranges(s->nd, s->ndPairs, cp);
}

/** String.prototype.codePointAt(i) over the whole text. */
static int32_t code_point_at(const Scan *s, int32_t i) {
  uint16_t c = s->t[i];
  if (is_high(c) && i + 1 < s->n && is_low(s->t[i + 1])) return pair_cp(c, s->t[i + 1]);
  return c;
}

/** First unit at or after `from` that can start a `\d` (ASCII digits, everything from U+0660), or n. */
static int32_t next_candidate(Scan *s, int32_t from) {
  if (from >= s->memoFrom && from <= s->memoAt) return s->memoAt;
  int32_t i = from;
  while (i < s->n && !((s->t[i] >= '0' && s->t[i] <= '9') || s->t[i] >= 0x660)) i++;
  s->memoFrom = from;
  s->memoAt = i;
  return i;
}

static int32_t next_digit(Scan *s, int32_t from, int32_t to) {
  for (int32_t i = next_candidate(s, from); i < to; i = next_candidate(s, i + 1)) {
    uint16_t c = s->t[i];
    if (c <= '9') return i;
    if (is_low(c) && i > 0 && is_high(s->t[i - 1])) continue;
    if (is_nd(s, code_point_at(s, i))) return i;
  }
  return -1;
}

/** Units of the `\d` at i, or 0. */
static int32_t digit_at(const Scan *s, int32_t i, int32_t to) {
  if (i >= to) return 0;
  uint16_t c = s->t[i];
  if (c < 0x660) return c >= '0' && c <= '9';
  int32_t cp = code_point_at(s, i);
  int32_t w = cp > 0xffff ? 2 : 1;
  return i + w <= to && is_nd(s, cp) ? w : 0;
}

static int32_t digits(const Scan *s, int32_t i, int count, int32_t to) {
  for (int k = 0; k < count; k++) {
    int32_t w = digit_at(s, i, to);
    if (w == 0) return -1;
    i += w;
  }
  return i;
}

static int is_sep(uint16_t c) { return c == '-' || c == '.' || c == ' '; }

static int32_t phone_tail(const Scan *s, int32_t i, int32_t to) {
  const uint16_t *t = s->t;
  if (i < to && t[i] == '(') i++;
  i = digits(s, i, 3, to);
  if (i < 0) return -1;
  if (i < to && t[i] == ')') i++;
  while (i < to && is_sep(t[i])) i++;
  i = digits(s, i, 3, to);
  if (i < 0) return -1;
  if (i < to && is_sep(t[i])) i++;
  return digits(s, i, 4, to);
}

static void phones(Scan *s, int32_t from, int32_t to) {
  const uint16_t *t = s->t;
  int32_t pos = from;
  for (int32_t d = next_digit(s, from, to); d != -1; d = next_digit(s, d + 1, to)) {
    int32_t at = d > from && t[d - 1] == '(' ? d - 1 : d;
    if (at <= pos || !is_py_ws(t[at - 1])) continue;
    int32_t st = at - 1;
    while (st > pos && is_py_ws(t[st - 1])) st--;
    int32_t end = phone_tail(s, at, to);
    if (end > 0) {
      put(s, PHONE, st, end);
      pos = end;
      d = end - 1;
    }
  }
}

/** fastPiiSpans' paragraph walk: the paragraphs holding an "@" or a digit, in order; IPs from the caller's list. */
static void fast_pii(Scan *s, const int32_t *ips, size_t nips) {
  const uint16_t *t = s->t;
  const int32_t n = s->n;
  int32_t questions = 0;
  for (int32_t i = index_of(s, '?', 0); i != -1 && questions <= 10000; i = index_of(s, '?', i + 1)) questions++;
  if (questions > 10000) return;
  size_t ip = 0;
  int32_t nextAt = index_of(s, '@', 0), digit = next_digit(s, 0, n);
  if (nextAt == -1) nextAt = n;
  if (digit == -1) digit = n;
  while (nextAt < n || digit < n) {
    int32_t hit = nextAt < digit ? nextAt : digit;
    int32_t start = hit;
    while (start > 0 && t[start] != '\n') start--;
    start = t[start] == '\n' ? start + 1 : 0;
    int32_t nl = index_of(s, '\n', hit);
    int32_t end = (nl == -1 ? n - 1 : nl) + 1;
    if (nextAt < end) {
      emails(s, start, end);
      nextAt = index_of(s, '@', end);
      if (nextAt == -1) nextAt = n;
    }
    if (digit < end) {
      phones(s, start, end);
      digit = next_digit(s, end, n);
      if (digit == -1) digit = n;
    }
    while (ip < nips && ips[2 * ip] < start) ip++;
    for (; ip < nips && ips[2 * ip] < end; ip++) put(s, IP, ips[2 * ip], ips[2 * ip + 1]);
  }
}

/**
 * piiFast(text, ips Int32Array [start, end] per IPv4 match in text order, nd Int32Array [lo, hi] pairs, out
 * Int32Array, sums Float64Array) → the number of spans, written to out as [type (0 e-mail, 1 phone, 2 IP), start, end]
 * while they fit (call again with more room when the number says they did not); sums = [code points of the text,
 * code points of the spans].
 */
napi_value pii_fast(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  int32_t *ips, *nd, *out;
  double *sums;
  size_t n, nips, nnd, nout, nsums;
  if (argc < 5 || napi_get_value_string_utf16(env, argv[0], NULL, 0, &n) != napi_ok || n > 0x3fffffff) return fail(env, "piiFast: text");
  if (!typed(env, argv[1], napi_int32_array, (void **)&ips, &nips) || nips % 2 != 0) return fail(env, "piiFast: ips");
  if (!typed(env, argv[2], napi_int32_array, (void **)&nd, &nnd) || nnd % 2 != 0) return fail(env, "piiFast: nd");
  if (!typed(env, argv[3], napi_int32_array, (void **)&out, &nout)) return fail(env, "piiFast: out");
  if (!typed(env, argv[4], napi_float64_array, (void **)&sums, &nsums) || nsums < 2) return fail(env, "piiFast: sums");
  for (size_t k = 0; k < nips; k += 2)
    if (ips[k] < 0 || ips[k] > ips[k + 1] || (size_t)ips[k + 1] > n || (k > 0 && ips[k] < ips[k - 2])) return fail(env, "piiFast: an IP match is outside the text or out of order");
  uint16_t *t = utf16_copy(env, argv[0], n);
  if (t == NULL) return fail(env, "piiFast: text (or out of memory)");
  Scan s = {t, (int32_t)n, nd, (int32_t)(nnd / 2), -1, -1, {out, nout, 0}};
  fast_pii(&s, ips, nips / 2);
  double covered = 0;
  for (size_t k = 0; k < s.found.count && (k + 1) * 3 <= nout; k++) covered += cp_len(t, out[3 * k + 1], out[3 * k + 2]);
  sums[0] = cp_len(t, 0, (int32_t)n);
  sums[1] = covered;
  free(t);
  napi_value result;
  CHECK(napi_create_double(env, (double)s.found.count, &result));
  return result;
}
