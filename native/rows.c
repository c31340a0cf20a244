// A tag pass's attribute object as JSON text in C: tag/rows.ts's spans, grouped by key, written as JSON.stringify would.
//
// tag/output.ts's groupSpans and JSON.stringify stay the reference: keys come out in the order of their first
// mention, each with its spans in order. A number is written only where its text provably equals JavaScript's
// (integers below 2^53; five-decimal scores below 10^9, which roundScore makes); for anything else the call returns
// null and the caller takes the JavaScript path, so the two never differ.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

/** Keys past this many are refused (types made from data): rows.ts then writes the row the JavaScript way. */
#define MAX_KEYS 65536

typedef struct {
  /* Each key as `"key":`, one after the other; key k is text[at[k], at[k + 1]). */
  char *text;
  uint32_t textLen, textCap;
  uint32_t *at;
  uint32_t nkeys, keysCap;
  /* Per key, for the call under way: the call it was last mentioned in, its first and last span entries. */
  uint32_t *seen;
  int32_t *head, *tail;
  uint32_t call;
  /* Per entry: the next entry of the same key; the keys in the order of their first mention; the output. */
  int32_t *next;
  uint32_t nextCap;
  uint32_t *order;
  char *out;
  size_t outCap;
} Rows;

static const napi_type_tag ROWS_TAG = {0x6173736179726f77ull, 0x7377726974657231ull};

static void *grown(void *p, uint32_t *cap, uint32_t need, size_t unit) {
  if (need <= *cap) return p;
  uint32_t n = *cap * 2 > need ? *cap * 2 : need + 64;
  void *q = realloc(p, (size_t)n * unit);
  if (q == NULL) return NULL;
  *cap = n;
  return q;
}

static void rows_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Rows *r = data;
  free(r->text);
  free(r->at);
  free(r->seen);
  free(r->head);
  free(r->tail);
  free(r->next);
  free(r->order);
  free(r->out);
  free(r);
}

/** rowWriter() → a handle for rowKey and rowAttrs (its key table is the caller's: one per process or thread). */
napi_value row_writer(napi_env env, napi_callback_info info) {
  (void)info;
  Rows *r = calloc(1, sizeof(Rows));
  if (r == NULL || (r->at = malloc(sizeof(uint32_t))) == NULL) {
    free(r);
    return fail(env, "rowWriter: out of memory");
  }
  r->at[0] = 0;
  napi_value out;
  if (napi_create_external(env, r, rows_free, NULL, &out) != napi_ok) {
    rows_free(env, r, NULL);
    return NULL;
  }
  CHECK(napi_type_tag_object(env, out, &ROWS_TAG));
  return out;
}

/** The call's first n arguments into argv, and the writer its first one holds; NULL (an error thrown) when not so. */
static Rows *rows_call(napi_env env, napi_callback_info info, napi_value *argv, size_t n, const char *what) {
  size_t argc = n;
  bool ok = false;
  Rows *r;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < n || napi_check_object_type_tag(env, argv[0], &ROWS_TAG, &ok) != napi_ok || !ok || napi_get_value_external(env, argv[0], (void **)&r) != napi_ok) {
    fail(env, what);
    return NULL;
  }
  return r;
}

/** rowKey(handle, key) → the key's id, or -1 when the table is full. Keys are attribute names: [A-Za-z0-9_]+. */
napi_value row_key(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  Rows *r = rows_call(env, info, argv, 2, "rowKey: handle");
  if (r == NULL) return NULL;
  char key[1024];
  size_t len;
  if (napi_get_value_string_latin1(env, argv[1], key, sizeof key, &len) != napi_ok || len == 0 || len >= sizeof key - 1) return fail(env, "rowKey: key");
  for (size_t i = 0; i < len; i++) {
    char c = key[i];
    // What makeVariableName leaves: nothing JSON would escape, and no character latin1 could have mangled.
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return fail(env, "rowKey: key");
  }
  int32_t id = -1;
  if (r->nkeys < MAX_KEYS) {
    uint32_t need = r->textLen + (uint32_t)len + 3;
    char *t = grown(r->text, &r->textCap, need, 1);
    if (t == NULL) return fail(env, "rowKey: out of memory");
    r->text = t;
    uint32_t cap = r->keysCap;
    uint32_t *at = grown(r->at, &cap, r->nkeys + 2, sizeof(uint32_t));
    if (at == NULL) return fail(env, "rowKey: out of memory");
    r->at = at;
    uint32_t *seen = realloc(r->seen, cap * sizeof(uint32_t));
    int32_t *head = realloc(r->head, cap * sizeof(int32_t)), *tail = realloc(r->tail, cap * sizeof(int32_t));
    uint32_t *order = realloc(r->order, cap * sizeof(uint32_t));
    if (seen != NULL) r->seen = seen;
    if (head != NULL) r->head = head;
    if (tail != NULL) r->tail = tail;
    if (order != NULL) r->order = order;
    if (seen == NULL || head == NULL || tail == NULL || order == NULL) return fail(env, "rowKey: out of memory");
    r->keysCap = cap;
    t[r->textLen] = '"';
    memcpy(t + r->textLen + 1, key, len);
    t[r->textLen + 1 + len] = '"';
    t[r->textLen + 2 + len] = ':';
    r->textLen = need;
    id = (int32_t)r->nkeys++;
    r->at[r->nkeys] = r->textLen;
    r->seen[id] = 0;
  }
  napi_value out;
  CHECK(napi_create_int32(env, id, &out));
  return out;
}

/** Writes integer v (|v| < 2^53); returns the characters written. */
static size_t put_int(char *p, int64_t v) {
  char digits[24];
  size_t n = 0, k = 0;
  uint64_t u = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u > 0);
  if (v < 0) p[k++] = '-';
  while (n > 0) p[k++] = digits[--n];
  return k;
}

#define SAFE 9007199254740992.0 /* 2^53 */

/** An offset as JSON.stringify writes it, or 0 when it cannot be written here (not an integer below 2^53). */
static size_t put_offset(char *p, double v) {
  if (!(v > -SAFE && v < SAFE) || v != (double)(int64_t)v) return 0;
  return put_int(p, (int64_t)v);
}

/**
 * A score as JSON.stringify writes it, or 0 when it cannot be written here. An integer prints in full (−0 as 0). A
 * value that is the double nearest n / 10^5 (what roundScore returns) with |value| < 10^9 prints as that decimal:
 * the doubles there are closer together than 10^-6, so no shorter decimal reads back as the same double, and
 * JavaScript writes the shortest one (its exponent forms start below 10^-6 and at 10^21).
 */
static size_t put_score(char *p, double v) {
  if (!(v > -SAFE && v < SAFE)) return 0;
  if (v == (double)(int64_t)v) return put_int(p, (int64_t)v);
  if (!(v > -1e9 && v < 1e9)) return 0;
  // Only one n has n / 10^5 rounding to v here, so a misrounded guess only sends the row to the JavaScript.
  double scaled = v * 1e5;
  int64_t n = (int64_t)(scaled + (scaled < 0 ? -0.5 : 0.5));
  if ((double)n / 1e5 != v) return 0;
  size_t k = 0;
  if (n < 0) {
    p[k++] = '-';
    n = -n;
  }
  k += put_int(p + k, n / 100000);
  int64_t frac = n % 100000;
  p[k++] = '.';
  char d[5];
  for (int i = 4; i >= 0; i--, frac /= 10) d[i] = (char)('0' + frac % 10);
  int last = 4;
  while (d[last] == '0') last--; // frac > 0: v is not an integer
  memcpy(p + k, d, (size_t)last + 1);
  return k + (size_t)last + 1;
}

/** Longest text of one span: `,[` + two offsets + a score + `]`. */
#define SPAN_MAX 80

/**
 * rowAttrs(handle, entries Float64Array [key, start, end, score] × count, count) → the attributes object as JSON text,
 * or null when a number cannot be written here. A key of −1 − k mentions key k without a span (an empty default).
 */
napi_value row_attrs(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  Rows *r = rows_call(env, info, argv, 3, "rowAttrs: handle");
  if (r == NULL) return NULL;
  double *e;
  size_t ne;
  uint32_t count;
  if (!typed(env, argv[1], napi_float64_array, (void **)&e, &ne)) return fail(env, "rowAttrs: entries");
  if (napi_get_value_uint32(env, argv[2], &count) != napi_ok || (size_t)count * 4 > ne) return fail(env, "rowAttrs: count");
  int32_t *next = grown(r->next, &r->nextCap, count + 1, sizeof(int32_t));
  if (next == NULL) return fail(env, "rowAttrs: out of memory");
  r->next = next;
  if (++r->call == 0) { // wrapped: no key may look seen by a call long past
    if (r->nkeys > 0) memset(r->seen, 0, r->nkeys * sizeof(uint32_t));
    r->call = 1;
  }
  uint32_t nkeys = 0;
  size_t bound = 2;
  for (uint32_t i = 0; i < count; i++) {
    double kv = e[4 * i];
    int span = kv >= 0;
    double kd = span ? kv : -1 - kv;
    if (!(kd >= 0 && kd < r->nkeys) || kd != (double)(uint32_t)kd) return fail(env, "rowAttrs: key");
    uint32_t k = (uint32_t)kd;
    if (r->seen[k] != r->call) {
      r->seen[k] = r->call;
      r->head[k] = r->tail[k] = -1;
      r->order[nkeys++] = k;
      bound += r->at[k + 1] - r->at[k] + 3;
    }
    if (!span) continue;
    next[i] = -1;
    if (r->tail[k] < 0) r->head[k] = (int32_t)i;
    else next[r->tail[k]] = (int32_t)i;
    r->tail[k] = (int32_t)i;
    bound += SPAN_MAX;
  }
  if (bound > r->outCap) {
    char *o = realloc(r->out, bound);
    if (o == NULL) return fail(env, "rowAttrs: out of memory");
    r->out = o;
    r->outCap = bound;
  }
  char *p = r->out;
  size_t k = 0;
  p[k++] = '{';
  for (uint32_t j = 0; j < nkeys; j++) {
    uint32_t key = r->order[j];
    if (j > 0) p[k++] = ',';
    memcpy(p + k, r->text + r->at[key], r->at[key + 1] - r->at[key]);
    k += r->at[key + 1] - r->at[key];
    p[k++] = '[';
    for (int32_t i = r->head[key]; i >= 0; i = next[i]) {
      if (i != r->head[key]) p[k++] = ',';
      p[k++] = '[';
      size_t w;
      if ((w = put_offset(p + k, e[4 * i + 1])) == 0) goto inexact;
      k += w;
      p[k++] = ',';
      if ((w = put_offset(p + k, e[4 * i + 2])) == 0) goto inexact;
      k += w;
      p[k++] = ',';
      if ((w = put_score(p + k, e[4 * i + 3])) == 0) goto inexact;
      k += w;
      p[k++] = ']';
    }
    p[k++] = ']';
  }
  p[k++] = '}';
  napi_value out;
  CHECK(napi_create_string_latin1(env, p, k, &out));
  return out;
inexact:;
  napi_value none;
  CHECK(napi_get_null(env, &none));
  return none;
}
