// The mixer's attribute and document lines read in C: each member's text, whether JSON.stringify would write it so, and spans' numbers.
#include "assay.h"
#include <stdlib.h>
#include <string.h>

/** Nesting past which a line is left to JSON.parse (and the mixer's depth check). */
#define MAX_DEPTH 64
/** Ints per member in `out`: keyStart, keyEnd, valueStart, valueEnd (negated: not canonical), kind, numAt, spans. */
#define MEMBER 7
/** Ints before the members: sameShape, idStart, idEnd, members. */
#define HEAD 4

typedef struct {
  const uint16_t *b;
  long n;
  int canon;
} Scan;

static int digit(uint16_t c) { return c >= '0' && c <= '9'; }

static int hex(uint16_t c) { return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/**
 * End of the string at b[i] == '"', or -1 for a control character, a lone surrogate or (for a name, `plain`) any
 * escape. A value's escapes other than JSON.stringify's own (\" \\ \b \f \n \r \t) make it not canonical.
 */
static long scan_string(Scan *s, long i, int plain) {
  for (long j = i + 1; j < s->n; j++) {
    uint16_t c = s->b[j];
    if (c == '"') return j + 1;
    if (c == '\\') {
      if (plain || ++j >= s->n) return -1;
      c = s->b[j];
      if (c == 'u') {
        if (j + 4 >= s->n || !hex(s->b[j + 1]) || !hex(s->b[j + 2]) || !hex(s->b[j + 3]) || !hex(s->b[j + 4])) return -1;
        j += 4;
        s->canon = 0;
      } else if (c == '/')
        s->canon = 0;
      else if (c != '"' && c != '\\' && c != 'b' && c != 'f' && c != 'n' && c != 'r' && c != 't')
        return -1;
      continue;
    }
    if (c < 0x20) return -1;
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c > 0xdbff || j + 1 >= s->n || !(s->b[j + 1] >= 0xdc00 && s->b[j + 1] <= 0xdfff)) return -1;
      j++;
    }
  }
  return -1;
}

/**
 * End of the JSON number at i, or -1. Canonical (JavaScript writes the same text) when it has no exponent, no fraction
 * ending in 0, at most 15 significant digits and, below 1, at most five zeros after the point; and is not -0.
 */
static long scan_number(Scan *s, long i) {
  long j = i;
  const uint16_t *b = s->b;
  int negative = j < s->n && b[j] == '-';
  if (negative) j++;
  if (j >= s->n) return -1;
  int significant = 0, ok = 1;
  int int_zero = b[j] == '0';
  if (int_zero) j++;
  else if (digit(b[j]))
    while (j < s->n && digit(b[j])) j++, significant++;
  else
    return -1;
  if (j < s->n && b[j] == '.') {
    j++;
    if (j >= s->n || !digit(b[j])) return -1;
    int zeros = 0;
    uint16_t last = 0;
    while (j < s->n && digit(b[j])) {
      if (significant == 0 && b[j] == '0') zeros++;
      else significant++;
      last = b[j++];
    }
    if (last == '0' || (int_zero && zeros > 5)) ok = 0;
  } else if (negative && int_zero)
    ok = 0;
  if (j < s->n && (b[j] == 'e' || b[j] == 'E')) {
    ok = 0;
    j++;
    if (j < s->n && (b[j] == '+' || b[j] == '-')) j++;
    if (j >= s->n || !digit(b[j])) return -1;
    while (j < s->n && digit(b[j])) j++;
  }
  if (!ok || significant > 15) s->canon = 0;
  return j;
}

static int literal(const Scan *s, long i, const char *word) {
  for (long k = 0; word[k]; k++)
    if (i + k >= s->n || s->b[i + k] != (uint16_t)word[k]) return 0;
  return 1;
}

/** End of the JSON value at i, or -1 when it is outside the compact subset read here (never text JSON.parse refuses). */
static long scan_value(Scan *s, long i, int depth) {
  if (i >= s->n) return -1;
  uint16_t c = s->b[i];
  if (c == '"') return scan_string(s, i, 0);
  if (c == '-' || digit(c)) return scan_number(s, i);
  if (c == '[' || c == '{') {
    if (depth >= MAX_DEPTH) return -1;
    uint16_t close = c == '[' ? ']' : '}';
    long j = i + 1;
    if (j < s->n && s->b[j] == close) return j + 1;
    // An object's keys may be out of order: its text is never taken as canonical.
    if (c == '{') s->canon = 0;
    for (;;) {
      if (c == '{') {
        if (j >= s->n || s->b[j] != '"') return -1;
        j = scan_string(s, j, 0);
        if (j < 0 || j >= s->n || s->b[j] != ':') return -1;
        j++;
      }
      j = scan_value(s, j, depth + 1);
      if (j < 0 || j >= s->n) return -1;
      if (s->b[j] == close) return j + 1;
      if (s->b[j] != ',') return -1;
      j++;
    }
  }
  if (c == 't') return literal(s, i, "true") ? i + 4 : -1;
  if (c == 'f') return literal(s, i, "false") ? i + 5 : -1;
  if (c == 'n') return literal(s, i, "null") ? i + 4 : -1;
  return -1;
}

static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                               1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/** The number b[a, e) as JSON.parse reads it, into *v; 0 when it cannot say (too long, or strtod stopped early). */
static int number_value(const uint16_t *b, long a, long e, double *v) {
  // Clinger's fast path: at most 15 digits and no exponent make an exact integer and an exact power of ten below
  // 1e23, so one IEEE division rounds as correctly as strtod (which is several times slower).
  long k = a + (b[a] == '-');
  int64_t mantissa = 0;
  int digits = 0, fraction = -1;
  for (; k < e && digits <= 15; k++) {
    if (digit(b[k])) {
      mantissa = mantissa * 10 + (b[k] - '0');
      digits++;
      if (fraction >= 0) fraction++;
    } else if (b[k] == '.' && fraction < 0)
      fraction = 0;
    else
      break;
  }
  if (k == e && digits <= 15) {
    double x = fraction > 0 ? (double)mantissa / POW10[fraction] : (double)mantissa;
    *v = b[a] == '-' ? -x : x;
    return 1;
  }
  char text[40];
  if (e - a >= (long)sizeof text) return 0;
  for (long k = a; k < e; k++) text[k - a] = (char)b[k];
  text[e - a] = 0;
  char *end;
  *v = strtod(text, &end);
  return end == text + (e - a);
}

/**
 * Whether the already scanned value b[i, e) is a list of [number, number, number] spans; their numbers go to
 * nums[*at…] (at most cap). *spans gets the count.
 */
static int spans_of(const uint16_t *b, long i, long e, double *nums, size_t cap, size_t *at, int32_t *spans) {
  if (b[i] != '[') return 0;
  long j = i + 1;
  int32_t k = 0;
  size_t p = *at;
  if (b[j] == ']') {
    *spans = 0;
    return 1;
  }
  for (;;) {
    if (j >= e || b[j] != '[') return 0;
    j++;
    for (int x = 0; x < 3; x++) {
      long a = j;
      while (j < e && b[j] != ',' && b[j] != ']') j++;
      if (j >= e || (b[j] != (x < 2 ? ',' : ']')) || p >= cap || !number_value(b, a, j, &nums[p])) return 0;
      if (!(b[a] == '-' || digit(b[a]))) return 0;
      p++;
      j++;
    }
    k++;
    if (j < e && b[j] == ',') {
      j++;
      continue;
    }
    if (j == e - 1 && b[j] == ']') break;
    return 0;
  }
  *at = p;
  *spans = k;
  return 1;
}

/** Whether the name b[a, e) is `key` (n characters). */
static int is_key(const Scan *s, long a, long e, const char *key, long n) { return e - a == n && literal(s, a, key); }

/** What a line reader needs besides its line: where attribute lines' span numbers go. */
typedef struct {
  double *nums;
  size_t ncap;
  size_t at;
} Extra;

/**
 * One attribute line into out[o…]: HEAD ints then MEMBER per member of `attributes` (pb, pr: the last line read and
 * its record). Returns the ints written, 0 when the line is outside the subset, -1 when out or nums is too small.
 */
static long read_line(Scan *s, int32_t *out, size_t o, size_t cap, const uint16_t *pb, const int32_t *pr, Extra *x) {
  double *nums = x->nums;
  size_t ncap = x->ncap, *at = &x->at;
  const uint16_t *b = s->b;
  long n = s->n;
  if (n < 2 || b[0] != '{' || b[n - 1] != '}') return 0;
  if (o + HEAD > cap) return -1;
  long j = 1, id_a = -1, id_e = -1;
  int32_t members = -1;
  size_t m0 = o + HEAD;
  // Whether every member so far has the name the last line read has at the same place (pb, pr: that line, its record).
  int same = pr != NULL;
  for (;;) {
    if (j >= n || b[j] != '"') return 0;
    long ke = scan_string(s, j, 1);
    if (ke < 0 || ke >= n || b[ke] != ':') return 0;
    if (is_key(s, j + 1, ke - 1, "id", 2)) {
      if (id_a >= 0 || ke + 1 >= n || b[ke + 1] != '"') return 0;
      long e = scan_string(s, ke + 1, 1);
      if (e < 0) return 0;
      id_a = ke + 2;
      id_e = e - 1;
      j = e;
    } else if (is_key(s, j + 1, ke - 1, "attributes", 10)) {
      if (members >= 0 || ke + 1 >= n || b[ke + 1] != '{') return 0;
      members = 0;
      j = ke + 2;
      if (j < n && b[j] == '}') j++;
      else
        for (;;) {
          if (j >= n || b[j] != '"') return 0;
          long e = -1;
          if (same && members < pr[3]) {
            // The last line's name here was checked already: the same text, closed by a quote, is the same name.
            const int32_t *q = pr + HEAD + members * MEMBER;
            long len = q[1] - q[0];
            if (j + 1 + len < n && b[j + 1 + len] == '"' && memcmp(b + j + 1, pb + q[0], (size_t)len * 2) == 0) e = j + 2 + len;
          }
          if (e < 0) {
            same = 0;
            e = scan_string(s, j, 1);
          }
          if (e < 0 || e >= n || b[e] != ':') return 0;
          size_t r = m0 + (size_t)members * MEMBER;
          if (r + MEMBER > cap) return -1;
          s->canon = 1;
          long ve = scan_value(s, e + 1, 1);
          if (ve < 0) return 0;
          out[r] = (int32_t)(j + 1);
          out[r + 1] = (int32_t)(e - 1);
          out[r + 2] = (int32_t)(e + 1);
          out[r + 3] = (int32_t)(s->canon ? ve : -ve);
          size_t p = *at;
          int32_t spans = 0;
          if (spans_of(b, e + 1, ve, nums, ncap, &p, &spans)) {
            out[r + 4] = 1;
            out[r + 5] = (int32_t)*at;
            out[r + 6] = spans;
            *at = p;
          } else {
            if (p >= ncap && b[e + 1] == '[') return -1;
            out[r + 4] = 0;
            out[r + 5] = 0;
            out[r + 6] = 0;
          }
          members++;
          j = ve;
          if (j >= n) return 0;
          if (b[j] == '}') {
            j++;
            break;
          }
          if (b[j] != ',') return 0;
          j++;
        }
    } else {
      j = scan_value(s, ke + 1, 1);
      if (j < 0) return 0;
    }
    if (j >= n) return 0;
    if (b[j] == '}') {
      if (j != n - 1) return 0;
      break;
    }
    if (b[j] != ',') return 0;
    j++;
  }
  if (id_a < 0 || members < 0) return 0;
  out[o] = same && members == pr[3];
  out[o + 1] = (int32_t)id_a;
  out[o + 2] = (int32_t)id_e;
  out[o + 3] = members;
  return HEAD + (long)members * MEMBER;
}

typedef long (*LineReader)(Scan *s, int32_t *out, size_t o, size_t cap, const uint16_t *pb, const int32_t *pr, Extra *x);

/**
 * Reads lines[0, count) with `read`: out[i] is line i's record offset (or -1: not a string, or left to JSON.parse),
 * the records follow. Each line is copied into the buffer the last line read is not in, which stays for the next
 * line's comparison of member names. Returns the ints used, -1 when out (or the numbers) are too small, -2 on a
 * Node-API error.
 */
static long read_lines(napi_env env, napi_value lines, uint32_t count, int32_t *out, size_t cap, LineReader read, Extra *x) {
  uint16_t *buf[2] = {NULL, NULL};
  size_t size[2] = {0, 0};
  long used = count, last = -1, result = -2;
  int lastBuf = 0;
  for (uint32_t i = 0; i < count; i++) {
    out[i] = -1;
    napi_value v;
    napi_valuetype t;
    size_t n, copied;
    if (napi_get_element(env, lines, i, &v) != napi_ok || napi_typeof(env, v, &t) != napi_ok) goto done;
    if (t != napi_string) continue;
    if (napi_get_value_string_utf16(env, v, NULL, 0, &n) != napi_ok) goto done;
    if (n > 0x3fffffff) continue;
    int k = last >= 0 ? 1 - lastBuf : 0;
    if (size[k] < n + 1) {
      free(buf[k]);
      size[k] = (n + 1) * 2;
      buf[k] = malloc(size[k] * sizeof(uint16_t));
      if (buf[k] == NULL) goto done;
    }
    if (napi_get_value_string_utf16(env, v, (char16_t *)buf[k], n + 1, &copied) != napi_ok || copied != n) goto done;
    Scan s = {buf[k], (long)n, 1};
    long w = read(&s, out, (size_t)used, cap, last >= 0 ? buf[lastBuf] : NULL, last >= 0 ? out + last : NULL, x);
    if (w < 0) {
      result = -1;
      goto done;
    }
    if (w == 0) continue;
    out[i] = (int32_t)used;
    last = used;
    lastBuf = k;
    used += w;
  }
  result = used;
done:
  free(buf[0]);
  free(buf[1]);
  return result;
}

/** The arguments both exports start with: lines, count, out (an Int32Array with room for count offsets). */
static int lines_args(napi_env env, napi_value *argv, uint32_t *count, int32_t **out, size_t *cap) {
  uint32_t len;
  bool is_array;
  return napi_is_array(env, argv[0], &is_array) == napi_ok && is_array && napi_get_array_length(env, argv[0], &len) == napi_ok &&
         napi_get_value_uint32(env, argv[1], count) == napi_ok && *count <= len && typed(env, argv[2], napi_int32_array, (void **)out, cap) &&
         *cap >= *count;
}

/** read_lines' result for JavaScript: the ints used, -1, or an error naming the export. */
static napi_value lines_result(napi_env env, long result, const char *error) {
  if (result == -2) return fail(env, error);
  napi_value r;
  CHECK(napi_create_int64(env, result, &r));
  return r;
}

/**
 * attrLines(lines, count, out Int32Array, nums Float64Array) → ints used in `out`, or -1 when out or nums is too
 * small (grow them and call again). out[i] (i < count) is line i's record offset, or -1 when the line is not a string
 * or is outside the subset (JSON.parse then decides). A record: sameShape (1: the same member keys as the last line
 * read), idStart, idEnd (the id string's text, unescaped), members, then per member keyStart, keyEnd, valueStart,
 * valueEnd (negated when stringifySorted would write the value differently), kind (1: a list of 3-number spans, their
 * numbers from nums[numAt]; 0: anything else), numAt, spans. Offsets are UTF-16 units into the line.
 */
napi_value attr_lines(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t count;
  int32_t *out;
  size_t cap;
  Extra x = {NULL, 0, 0};
  if (argc < 4 || !lines_args(env, argv, &count, &out, &cap)) return fail(env, "attrLines: lines, count or out");
  if (!typed(env, argv[3], napi_float64_array, (void **)&x.nums, &x.ncap)) return fail(env, "attrLines: nums");
  return lines_result(env, read_lines(env, argv[0], count, out, cap, read_line, &x), "attrLines: could not read a line");
}

/** Ints per member of a document line: keyStart, keyEnd, valueStart, valueEnd (negated: not canonical). */
#define DOC_MEMBER 4

/**
 * A document line's top-level members into out[o…]: sameShape, members, then DOC_MEMBER ints per member. Returns the
 * ints written, 0 when the line is outside the compact subset, -1 when out is too small.
 */
static long read_doc(Scan *s, int32_t *out, size_t o, size_t cap, const uint16_t *pb, const int32_t *pr, Extra *x) {
  (void)x;
  const uint16_t *b = s->b;
  long n = s->n;
  if (n < 2 || b[0] != '{' || b[n - 1] != '}') return 0;
  if (o + 2 > cap) return -1;
  int32_t members = 0;
  int same = pr != NULL;
  long j = 1;
  if (b[j] != '}')
    for (;;) {
      if (j >= n || b[j] != '"') return 0;
      size_t r = o + 2 + (size_t)members * DOC_MEMBER;
      if (r + DOC_MEMBER > cap) return -1;
      long e = scan_string(s, j, 1);
      if (e < 0 || e >= n || b[e] != ':') return 0;
      if (same && members < pr[1]) {
        const int32_t *q = pr + 2 + members * DOC_MEMBER;
        same = q[1] - q[0] == e - 2 - j && memcmp(b + j + 1, pb + q[0], (size_t)(e - 2 - j) * 2) == 0;
      } else
        same = 0;
      s->canon = 1;
      long ve = scan_value(s, e + 1, 1);
      if (ve < 0 || ve >= n) return 0;
      out[r] = (int32_t)(j + 1);
      out[r + 1] = (int32_t)(e - 1);
      out[r + 2] = (int32_t)(e + 1);
      out[r + 3] = (int32_t)(s->canon ? ve : -ve);
      members++;
      j = ve;
      if (b[j] == '}') break;
      if (b[j] != ',') return 0;
      j++;
    }
  if (j != n - 1) return 0;
  out[o] = same && members == pr[1];
  out[o + 1] = members;
  return 2 + (long)members * DOC_MEMBER;
}

/**
 * docLines(lines, count, out Int32Array) → ints used in `out`, or -1 when it is too small. out[i] (i < count) is line
 * i's record offset, or -1 (not a string, or outside the compact subset). A record: sameShape (1: the member names of
 * the last line read), members, then per member keyStart, keyEnd, valueStart, valueEnd (negated when
 * stringifySorted would write the value differently). Offsets are UTF-16 units into the line.
 */
napi_value doc_lines(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t count;
  int32_t *out;
  size_t cap;
  if (argc < 3 || !lines_args(env, argv, &count, &out, &cap)) return fail(env, "docLines: lines, count or out");
  return lines_result(env, read_lines(env, argv[0], count, out, cap, read_doc, NULL), "docLines: could not read a line");
}
