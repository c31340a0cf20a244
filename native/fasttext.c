// fastText's hidden vector in C (tokens, their rows cached, n-grams hashed, the float32 sum): js-predict.ts's `embed`.
//
// The JavaScript predictor stays the reference: this file repeats its steps one for one (same whitespace bytes, same
// `</s>` and `__label__` rules, same n-gram order, rows added one after the other in float32), and the tests compare
// the two bit for bit. C, unlike the JavaScript, needs no warm-up and no garbage collection of its caches.
// mmap's MAP_ANONYMOUS and madvise's MADV_HUGEPAGE, which strict C11 hides.
#define _DEFAULT_SOURCE
#include "assay.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define FNV_START 0x811c9dc5u
#define FNV_PRIME 0x01000193u
/** Pool ints before the token cache starts over (token-cache.ts's POOL_LIMIT; its entry limit is a parameter). */
#define POOL_LIMIT (1u << 23)

typedef struct {
  uint32_t hash;
  int32_t entry;
} Slot;

/** What big_zeroed mapped for a table (base 0: the table came from calloc). */
typedef struct {
  void *base;
  size_t bytes;
} Mapping;

typedef struct {
  int32_t dim, minn, maxn, nwords;
  uint32_t bucket;
  int32_t rows;
  /* Input rows; a product-quantized matrix's are decoded on first use (big_zeroed: pages are zero until touched). */
  float *matrix;
  Mapping matrixMap;
  uint8_t *decoded;
  uint8_t *codes;
  float *centroids, *norms;
  int32_t nsubq, dsub, last;
  /* Dictionary words: open addressing on the bytes' hash; a slot is 1 + the word's index, 0 when empty. */
  uint32_t wmask, wshift;
  int32_t *wslot;
  uint32_t *whash;
  int32_t *wat, *wid;
  uint8_t *wbytes;
  /* Pruned buckets, as BucketTable lays them out: key/value pairs (key -1 empty), and a bit per bucket. */
  int pruned;
  uint32_t pmask;
  int32_t *pslots;
  uint32_t *pbits;
  uint32_t pbitsLen;
  /*
   * Token cache: a slot holds the hash and 1 + the entry's offset side by side (one cache line read per probe); an
   * entry is [key length, key bytes packed four to an int..., list length, list...].
   */
  uint32_t cmask, csize, climit;
  Slot *slots;
  Mapping slotsMap;
  int32_t *pool;
  Mapping poolMap;
  uint32_t pused, pcap;
  /* Scratch: one token's rows, `<token>`, the line's gathered rows, per token the offset of its list. */
  int32_t *found;
  uint32_t foundCap;
  uint8_t *w;
  uint32_t wCap;
  int32_t *at;
  uint32_t atCap;
  /* The line's tokens, three ints each (start, length, hash), split before any is looked up. */
  uint32_t *tok;
  uint32_t tokCap;
  int32_t eos[64];
  int32_t eosN;
} Model;

static void *grow(void *p, uint32_t *cap, uint32_t need, size_t unit) {
  if (need <= *cap) return p;
  uint32_t n = *cap * 2 > need ? *cap * 2 : need + 64;
  void *q = realloc(p, (size_t)n * unit);
  if (q == NULL) abort();
  *cap = n;
  return q;
}

static uint32_t slot_of(uint32_t h, uint32_t mask) { return ((h * 0x9e3779b1u) >> 12) & mask; }

static int32_t word_get(const Model *m, const uint8_t *s, uint32_t len, uint32_t h) {
  for (uint32_t i = (h * 0x9e3779b1u) >> m->wshift;; i = (i + 1) & m->wmask) {
    int32_t e = m->wslot[i];
    if (e == 0) return -1;
    if (m->whash[i] != h) continue;
    int32_t from = m->wat[e - 1];
    if ((uint32_t)(m->wat[e] - from) == len && memcmp(m->wbytes + from, s, len) == 0) return m->wid[e - 1];
  }
}

static int32_t prune_get(const Model *m, uint32_t key) {
  if (m->pbits != NULL && (m->pbits[key >> 5] & (1u << (key & 31))) == 0) return -1;
  for (uint32_t i = (key * 0x9e3779b1u) & m->pmask;; i = (i + 1) & m->pmask) {
    int32_t k = m->pslots[i * 2];
    if (k == (int32_t)key) return m->pslots[i * 2 + 1];
    if (k == -1) return -1;
  }
}

static int is_eos(const uint8_t *s) { return s[0] == '<' && s[1] == '/' && s[2] == 's' && s[3] == '>'; }

/** `subwordRows` of w[0, len) (`<token>`) appended to m->found from `count`; the new count. */
static uint32_t subwords(Model *m, const uint8_t *w, uint32_t len, uint32_t count) {
  for (uint32_t i = 0; i < len; i++) {
    if ((w[i] & 0xc0) == 0x80) continue;
    uint32_t h = FNV_START;
    for (uint32_t j = i, n = 1; j < len && n <= (uint32_t)m->maxn; n++) {
      do {
        // fastText hashes `int8_t` bytes: sign-extended.
        h = (h ^ (uint32_t)(int32_t)(int8_t)w[j++]) * FNV_PRIME;
      } while (j < len && (w[j] & 0xc0) == 0x80);
      if (n >= (uint32_t)m->minn && !(n == 1 && (i == 0 || j == len))) {
        uint32_t b = h % m->bucket;
        int32_t id = m->pruned ? prune_get(m, b) : (int32_t)b;
        if (id >= 0) m->found[count++] = m->nwords + id;
      }
    }
  }
  return count;
}

static const uint8_t LABEL[9] = {'_', '_', 'l', 'a', 'b', 'e', 'l', '_', '_'};

/**
 * Row r of a product-quantized matrix, element = fround(norm · centroid), as js-model.ts's decode (and fastText's
 * addcode) computes it: the float product rounded once.
 */
static void decode_row(Model *m, int32_t r) {
  if (m->decoded == NULL || m->decoded[r]) return;
  double alpha = m->norms == NULL ? 1.0 : (double)m->norms[r];
  for (int64_t q = 0; q < m->nsubq; q++) {
    int64_t code = m->codes[(int64_t)r * m->nsubq + q];
    int64_t width = q == m->nsubq - 1 ? m->last : m->dsub;
    int64_t at = q == m->nsubq - 1 ? q * 256 * m->dsub + code * m->last : (q * 256 + code) * m->dsub;
    float *row = m->matrix + (int64_t)r * m->dim + q * m->dsub;
    for (int64_t k = 0; k < width; k++) row[k] = (float)(alpha * (double)m->centroids[at + k]);
  }
  m->decoded[r] = 1;
}

/** The input rows of the token s[0, len) (hash h): its word row if any, then its n-grams, into m->found; their number. */
static uint32_t token_rows(Model *m, const uint8_t *s, uint32_t len, uint32_t h) {
  m->found = grow(m->found, &m->foundCap, (len + 2) * (uint32_t)(m->maxn > 0 ? m->maxn : 1) + 1, sizeof(int32_t));
  uint32_t count = 0;
  // fastText reads a token with the label prefix as a label, never as input.
  int label = len >= sizeof LABEL && memcmp(s, LABEL, sizeof LABEL) == 0;
  int32_t wid = label ? -1 : word_get(m, s, len, h);
  if (wid >= 0) m->found[count++] = wid;
  if (!(len == 4 && is_eos(s)) && m->maxn > 0 && !label) {
    m->w = grow(m->w, &m->wCap, len + 2, 1);
    m->w[0] = '<';
    memcpy(m->w + 1, s, len);
    m->w[len + 1] = '>';
    count = subwords(m, m->w, len + 2, count);
  }
  return count;
}

/**
 * Zeroed memory for a table read at random (`map`: what big_free unmaps). On Linux it is asked for in transparent huge
 * pages (madvise; a no-op where the system has them off): lid.176's matrix alone is 800 small pages, each a page fault
 * when a token first needs one of its rows and a TLB entry the lookups then compete for.
 */
static void *big_zeroed(size_t bytes, Mapping *map) {
  map->base = NULL;
  map->bytes = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const size_t huge = (size_t)2 << 20;
  if (bytes >= huge) {
    // One huge page more than needed, so that the table can start on a huge page's boundary.
    size_t n = (bytes + 2 * huge - 1) / huge * huge;
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      uintptr_t at = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
      madvise((void *)at, n - (at - (uintptr_t)p), MADV_HUGEPAGE);
      map->base = p;
      map->bytes = n;
      return (void *)at;
    }
  }
#endif
  return calloc(bytes, 1);
}

static void big_free(void *p, Mapping map) {
#if defined(__linux__)
  if (map.base != NULL) {
    munmap(map.base, map.bytes);
    return;
  }
#endif
  free(p);
}

/** Room for `need` ints in the pool (grown as `grow` grows, but in big_zeroed's memory: only the used part copied). */
static void pool_reserve(Model *m, uint32_t need) {
  if (need <= m->pcap) return;
  uint32_t n = m->pcap * 2 > need ? m->pcap * 2 : need + 64;
  Mapping map;
  int32_t *p = big_zeroed((size_t)n * sizeof(int32_t), &map);
  if (p == NULL) abort();
  if (m->pused > 0) memcpy(p, m->pool, (size_t)m->pused * sizeof(int32_t));
  big_free(m->pool, m->poolMap);
  m->pool = p;
  m->poolMap = map;
  m->pcap = n;
}

static void cache_reset(Model *m, uint32_t slots) {
  big_free(m->slots, m->slotsMap);
  m->slots = big_zeroed((size_t)slots * sizeof(Slot), &m->slotsMap);
  if (m->slots == NULL) abort();
  m->cmask = slots - 1;
  m->csize = 0;
}

static void cache_place(Model *m, uint32_t h, int32_t entry) {
  uint32_t i = slot_of(h, m->cmask);
  while (m->slots[i].entry != 0) i = (i + 1) & m->cmask;
  m->slots[i].hash = h;
  m->slots[i].entry = entry;
}

/** Ints holding a key of len bytes. */
static uint32_t key_ints(uint32_t len) { return (len + 3) / 4; }

/** Offset of the list of s[0, len), or -1. */
static int32_t cache_find(const Model *m, const uint8_t *s, uint32_t len, uint32_t h) {
  for (uint32_t i = slot_of(h, m->cmask);; i = (i + 1) & m->cmask) {
    int32_t e = m->slots[i].entry;
    if (e == 0) return -1;
    if (m->slots[i].hash == h && m->pool[e - 1] == (int32_t)len) {
      const uint8_t *key = (const uint8_t *)(m->pool + e);
      uint32_t k = 0;
      while (k < len && key[k] == s[k]) k++;
      if (k == len) return e + (int32_t)key_ints(len);
    }
  }
}

/** Caches the rows of s[0, len), which cache_find has just missed; the offset of its list. */
static int32_t cache_add(Model *m, const uint8_t *s, uint32_t len, uint32_t h) {
  uint32_t n = token_rows(m, s, len, h);
  for (uint32_t k = 0; k < n; k++) decode_row(m, m->found[k]);
  uint32_t ints = key_ints(len);
  pool_reserve(m, m->pused + ints + n + 2);
  int32_t e = (int32_t)m->pused;
  m->pool[e] = (int32_t)len;
  m->pool[e + (int32_t)ints] = 0; // the last int's unused bytes, never compared, zero all the same
  memcpy(m->pool + e + 1, s, len);
  int32_t at = e + 1 + (int32_t)ints;
  m->pool[at] = (int32_t)n;
  memcpy(m->pool + at + 1, m->found, n * sizeof(int32_t));
  m->pused += ints + n + 2;
  if (++m->csize * 2 > m->cmask + 1) {
    uint32_t old = m->cmask + 1;
    Slot *os = m->slots;
    Mapping om = m->slotsMap;
    m->slots = NULL;
    m->slotsMap = (Mapping){NULL, 0};
    uint32_t size = m->csize;
    cache_reset(m, old * 2);
    m->csize = size;
    for (uint32_t i = 0; i < old; i++)
      if (os[i].entry != 0) cache_place(m, os[i].hash, os[i].entry);
    big_free(os, om);
  }
  cache_place(m, h, e + 1);
  return at;
}

/**
 * embed's sum for 16-dimensional models (lid.176's, and fastText's default for supervised models): the same float32
 * additions in the same order per dimension, into a local array the compiler keeps in vector registers (summing into
 * `hidden`, which may alias a row for all the compiler knows, loads and stores every element for every row).
 */
static uint32_t sum16(const Model *m, uint32_t tokens, int stopped, float *hidden) {
  float acc[16] = {0};
  uint32_t count = 0;
  for (uint32_t t = 0; t < tokens; t++) {
    const int32_t *l = m->pool + m->at[t];
    int32_t n = l[0];
    for (int32_t k = 1; k <= n; k++) {
      const float *row = m->matrix + (size_t)l[k] * 16;
      for (int d = 0; d < 16; d++) acc[d] += row[d];
    }
    count += (uint32_t)n;
  }
  if (!stopped) {
    for (int32_t k = 0; k < m->eosN; k++) {
      const float *row = m->matrix + (size_t)m->eos[k] * 16;
      for (int d = 0; d < 16; d++) acc[d] += row[d];
    }
    count += (uint32_t)m->eosN;
  }
  if (count == 0) {
    for (int d = 0; d < 16; d++) hidden[d] = 0.0f;
    return 0;
  }
  const float scale = (float)(1.0 / (double)count);
  for (int d = 0; d < 16; d++) hidden[d] = acc[d] * scale;
  return count;
}

static int is_space(uint8_t c) { return c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09 || c == 0x0b || c == 0x0c || c == 0x00; }

/**
 * The hidden vector of line[0, end) into hidden[0, dim): tokens split on fastText's whitespace bytes, stopping after
 * a `</s>` token; each token's rows (cached); `</s>`'s rows appended unless a literal one stopped the line; the rows
 * summed in float32, in order, and scaled by fround(1 / count). Returns the count (0: no input row, hidden zero).
 */
static uint32_t embed(Model *m, const uint8_t *line, uint32_t end, float *hidden) {
  if (m->csize >= m->climit || m->pused >= POOL_LIMIT) {
    cache_reset(m, 16);
    m->pused = 0;
  }
  // The tokens are split first, then looked up in stages over all of them, each stage prefetching what the next
  // reads (the slot, the entry, the rows): a token's lookup is a chain of cache misses, and one token at a time the
  // processor waits on every link. The results are those of looking the tokens up one by one.
  uint32_t tokens = 0;
  int stopped = 0;
  uint32_t start = 0;
  int in = 0;
  uint32_t h = FNV_START;
  for (uint32_t i = 0; i <= end; i++) {
    uint8_t c = i < end ? line[i] : 0x20;
    if (!is_space(c)) {
      if (!in) {
        in = 1;
        start = i;
        h = FNV_START;
      }
      h = (h ^ c) * FNV_PRIME;
    } else if (in) {
      uint32_t len = i - start;
      m->tok = grow(m->tok, &m->tokCap, 3 * (tokens + 1), sizeof(uint32_t));
      uint32_t *t = m->tok + 3 * tokens++;
      t[0] = start;
      t[1] = len;
      t[2] = h;
      __builtin_prefetch(m->slots + slot_of(h, m->cmask));
      in = 0;
      if (len == 4 && is_eos(line + start)) {
        stopped = 1;
        break;
      }
    }
  }
  m->at = grow(m->at, &m->atCap, tokens + 1, sizeof(int32_t));
  // at[t]: the first entry whose slot holds the token's hash (0: none), its key checked in the next stage.
  for (uint32_t t = 0; t < tokens; t++) {
    uint32_t th = m->tok[3 * t + 2];
    int32_t e = 0;
    for (uint32_t i = slot_of(th, m->cmask); m->slots[i].entry != 0; i = (i + 1) & m->cmask) {
      if (m->slots[i].hash == th) {
        e = m->slots[i].entry;
        __builtin_prefetch(m->pool + e - 1);
        break;
      }
    }
    m->at[t] = e;
  }
  // The offsets of the tokens' lists (adding a token may move the pool: offsets, not pointers).
  for (uint32_t t = 0; t < tokens; t++) {
    const uint32_t *k = m->tok + 3 * t;
    const uint8_t *s = line + k[0];
    int32_t e = m->at[t], at = -1;
    if (e != 0 && m->pool[e - 1] == (int32_t)k[1] && memcmp(m->pool + e, s, k[1]) == 0) at = e + (int32_t)key_ints(k[1]);
    // No entry (the token may have been added for an earlier one of this line) or another token with its hash.
    if (at < 0) at = cache_find(m, s, k[1], k[2]);
    if (at < 0) at = cache_add(m, s, k[1], k[2]);
    m->at[t] = at;
    const int32_t *l = m->pool + at;
    for (int32_t r = 1; r <= l[0]; r++) __builtin_prefetch(m->matrix + (size_t)l[r] * (size_t)m->dim);
  }
  if (m->dim == 16) return sum16(m, tokens, stopped, hidden);
  for (int32_t d = 0; d < m->dim; d++) hidden[d] = 0.0f;
  uint32_t count = 0;
  const int32_t dim = m->dim;
  for (uint32_t t = 0; t < tokens; t++) {
    const int32_t *l = m->pool + m->at[t];
    int32_t n = l[0];
    for (int32_t k = 1; k <= n; k++) {
      const float *row = m->matrix + (size_t)l[k] * (size_t)dim;
      for (int32_t d = 0; d < dim; d++) hidden[d] += row[d];
    }
    count += (uint32_t)n;
  }
  if (!stopped) {
    for (int32_t k = 0; k < m->eosN; k++) {
      const float *row = m->matrix + (size_t)m->eos[k] * (size_t)dim;
      for (int32_t d = 0; d < dim; d++) hidden[d] += row[d];
    }
    count += (uint32_t)m->eosN;
  }
  if (count == 0) return 0;
  const float scale = (float)(1.0 / (double)count);
  for (int32_t d = 0; d < dim; d++) hidden[d] = hidden[d] * scale;
  return count;
}

static void model_free(Model *m) {
  if (m == NULL) return;
  big_free(m->matrix, m->matrixMap);
  free(m->decoded);
  free(m->codes);
  free(m->centroids);
  free(m->norms);
  free(m->wslot);
  free(m->whash);
  free(m->wat);
  free(m->wid);
  free(m->wbytes);
  free(m->pslots);
  free(m->pbits);
  big_free(m->slots, m->slotsMap);
  big_free(m->pool, m->poolMap);
  free(m->found);
  free(m->w);
  free(m->at);
  free(m->tok);
  free(m);
}

/* ---- Node-API ---- */

static void *copy(const void *src, size_t bytes) {
  void *p = malloc(bytes > 0 ? bytes : 1);
  if (p == NULL) abort();
  if (bytes > 0) memcpy(p, src, bytes);
  return p;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  model_free((Model *)data);
}

/** The parts of a product-quantized input matrix, checked so that decoding any of its rows stays inside them. */
typedef struct {
  uint8_t *codes;
  float *centroids, *norms;
  int64_t rows, nsubq, dsub, last;
} Pq;

static const char *read_pq(napi_env env, napi_value *argv, int32_t dim, Pq *pq) {
  size_t ncodes, ncent, nnorms = 0, np;
  int32_t *p;
  napi_valuetype kind;
  if (!typed(env, argv[0], napi_uint8_array, (void **)&pq->codes, &ncodes)) return "create: codes";
  if (!typed(env, argv[1], napi_float32_array, (void **)&pq->centroids, &ncent)) return "create: centroids";
  pq->norms = NULL;
  if (napi_typeof(env, argv[2], &kind) != napi_ok || (kind != napi_null && !typed(env, argv[2], napi_float32_array, (void **)&pq->norms, &nnorms))) return "create: norms";
  if (!typed(env, argv[3], napi_int32_array, (void **)&p, &np) || np < 4) return "create: quantizer";
  pq->rows = p[0], pq->nsubq = p[1], pq->dsub = p[2], pq->last = p[3];
  if (pq->rows < 0 || pq->nsubq <= 0 || pq->dsub <= 0 || pq->last <= 0 || (pq->nsubq - 1) * pq->dsub + pq->last != dim) return "create: quantizer";
  // The largest centroid offset read is the last subquantizer's code 255 (its centroids are lastdsub wide).
  if ((size_t)(pq->rows * pq->nsubq) > ncodes || (pq->norms != NULL && (size_t)pq->rows > nnorms) ||
      (size_t)((pq->nsubq - 1) * 256 * pq->dsub + 256 * pq->last) > ncent)
    return "create: the quantized matrix's arrays are shorter than its rows need";
  pq->codes = copy(pq->codes, ncodes);
  pq->centroids = copy(pq->centroids, ncent * sizeof(float));
  if (pq->norms != NULL) pq->norms = copy(pq->norms, (size_t)pq->rows * sizeof(float));
  return NULL;
}

/**
 * The pruned buckets' table from the model's (bucket, row) pairs, laid out as js-tables.ts's BucketTable lays it out
 * (the same probing, so either side's lookups agree): open addressing in `pslots` (key -1 empty), and a bit per bucket
 * below 2^28 buckets. Returns the largest row, or -1 when a row is negative.
 */
static int64_t prune_build(Model *m, const int32_t *pairs, size_t n) {
  uint32_t cap = 16;
  while ((size_t)cap < n) cap *= 2; // n = 2 × entries: at most half full
  m->pmask = cap - 1;
  m->pslots = malloc((size_t)cap * 2 * sizeof(int32_t));
  if (m->pslots == NULL) abort();
  memset(m->pslots, 0xff, (size_t)cap * 2 * sizeof(int32_t));
  if (m->bucket <= (1u << 28)) {
    m->pbitsLen = (m->bucket + 31) >> 5;
    m->pbits = calloc(m->pbitsLen > 0 ? m->pbitsLen : 1, sizeof(uint32_t));
    if (m->pbits == NULL) abort();
  }
  int64_t max = -1;
  for (size_t k = 0; k + 1 < n; k += 2) {
    int32_t key = pairs[k], value = pairs[k + 1];
    if (value < 0) return -1;
    if (value > max) max = value;
    uint32_t w = (uint32_t)key >> 5;
    if (m->pbits != NULL && key >= 0 && w < m->pbitsLen) m->pbits[w] |= 1u << (key & 31);
    uint32_t i = ((uint32_t)key * 0x9e3779b1u) & m->pmask;
    while (m->pslots[i * 2] != -1 && m->pslots[i * 2] != key) i = (i + 1) & m->pmask;
    m->pslots[i * 2] = key;
    m->pslots[i * 2 + 1] = value;
  }
  return max;
}

/**
 * create(params Int32Array [dim, minn, maxn, nwords, bucket, cacheLimit], matrix Float32Array | null, wordBytes
 * Uint8Array, wordAt Int32Array, wordIds Int32Array, prunePairs Int32Array | null[, codes Uint8Array, centroids
 * Float32Array, norms Float32Array | null, quantizer Int32Array [rows, nsubq, dsub, lastdsub]]) → handle. A dense
 * matrix is copied; a quantized one (matrix null) is decoded row by row when a token first needs the row, as the
 * JavaScript does. The pruned buckets' (bucket, row) pairs, as the model file stores them, are made into a table here
 * (the JavaScript builds its own only when it predicts without the addon). Everything is checked so that no row, word
 * or bucket read can leave its array.
 */
napi_value fasttext_create(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 6) return fail(env, "create: 6 arguments expected");
  int32_t *params, *wat, *wid;
  float *matrix = NULL;
  uint8_t *wbytes;
  size_t np, nm = 0, nb, na, ni;
  Pq pq = {0};
  if (!typed(env, argv[0], napi_int32_array, (void **)&params, &np) || np < 6) return fail(env, "create: params");
  napi_valuetype mkind;
  CHECK(napi_typeof(env, argv[1], &mkind));
  if (mkind != napi_null && !typed(env, argv[1], napi_float32_array, (void **)&matrix, &nm)) return fail(env, "create: matrix");
  if (mkind == napi_null && argc < 10) return fail(env, "create: a quantized matrix needs its codes, centroids, norms and quantizer");
  if (!typed(env, argv[2], napi_uint8_array, (void **)&wbytes, &nb)) return fail(env, "create: word bytes");
  if (!typed(env, argv[3], napi_int32_array, (void **)&wat, &na)) return fail(env, "create: word offsets");
  if (!typed(env, argv[4], napi_int32_array, (void **)&wid, &ni) || na != ni + 1) return fail(env, "create: word ids");
  int32_t dim = params[0];
  // fastText sets bucket 0 when a model has no character n-grams.
  if (dim <= 0 || params[4] < 0 || (params[4] == 0 && params[2] > 0) || params[1] < 0 || params[2] < 0 || params[3] < 0 || params[5] <= 0) return fail(env, "create: model parameters");
  int64_t rows = (int64_t)(nm / (size_t)dim);
  if (matrix == NULL) {
    const char *bad = read_pq(env, argv + 6, dim, &pq);
    if (bad != NULL) return fail(env, bad);
    rows = pq.rows;
  }
  // Once the quantized parts are copied, a refusal below must free them: model_free does, so they go into the model first.
  Model *m = calloc(1, sizeof(Model));
  if (m == NULL) abort();
  m->codes = pq.codes;
  m->centroids = pq.centroids;
  m->norms = pq.norms;
  m->nsubq = (int32_t)pq.nsubq;
  m->dsub = (int32_t)pq.dsub;
  m->last = (int32_t)pq.last;
  m->dim = dim;
  for (size_t k = 0; k < ni; k++)
    if (wat[k] < 0 || wat[k] > wat[k + 1] || (size_t)wat[k + 1] > nb || wid[k] < 0 || wid[k] >= rows) {
      model_free(m);
      return fail(env, "create: a word is outside its arrays");
    }
  m->minn = params[1];
  m->maxn = params[2];
  m->nwords = params[3];
  m->bucket = (uint32_t)params[4];
  m->climit = (uint32_t)params[5];
  m->rows = (int32_t)rows;
  napi_valuetype kind;
  CHECK(napi_typeof(env, argv[5], &kind));
  int64_t subRows = params[4];
  if (kind != napi_null) {
    int32_t *pairs;
    size_t npairs;
    if (!typed(env, argv[5], napi_int32_array, (void **)&pairs, &npairs) || npairs % 2 != 0) {
      model_free(m);
      return fail(env, "create: prune pairs");
    }
    m->pruned = 1;
    int64_t max = prune_build(m, pairs, npairs);
    if (max < 0 && npairs > 0) {
      model_free(m);
      return fail(env, "create: a pruned bucket's row is negative");
    }
    subRows = max + 1;
  }
  if ((int64_t)params[3] + subRows > rows) {
    model_free(m);
    return fail(env, "create: the n-gram rows are outside the matrix");
  }
  if (matrix != NULL) m->matrix = copy(matrix, nm * sizeof(float));
  else {
    m->matrix = big_zeroed(((size_t)rows * (size_t)dim + 1) * sizeof(float), &m->matrixMap);
    m->decoded = calloc((size_t)rows + 1, 1);
    if (m->matrix == NULL || m->decoded == NULL) abort();
  }
  m->wbytes = copy(wbytes, nb);
  m->wat = copy(wat, na * sizeof(int32_t));
  m->wid = copy(wid, ni * sizeof(int32_t));
  uint32_t bits = 4;
  while ((1u << bits) < ni * 2) bits++;
  m->wmask = (1u << bits) - 1;
  m->wshift = 32 - bits;
  m->wslot = calloc(m->wmask + 1, sizeof(int32_t));
  m->whash = calloc(m->wmask + 1, sizeof(uint32_t));
  if (m->wslot == NULL || m->whash == NULL) abort();
  for (size_t k = 0; k < ni; k++) {
    uint32_t h = FNV_START;
    for (int32_t i = wat[k]; i < wat[k + 1]; i++) h = (h ^ wbytes[i]) * FNV_PRIME;
    uint32_t i = (h * 0x9e3779b1u) >> m->wshift;
    while (m->wslot[i] != 0) i = (i + 1) & m->wmask;
    m->wslot[i] = (int32_t)k + 1;
    m->whash[i] = h;
  }
  cache_reset(m, 16);
  // `</s>`, which ends every line that no literal `</s>` token stopped.
  static const uint8_t EOS[4] = {'<', '/', 's', '>'};
  uint32_t h = FNV_START;
  for (int i = 0; i < 4; i++) h = (h ^ EOS[i]) * FNV_PRIME;
  m->eosN = (int32_t)token_rows(m, EOS, 4, h);
  memcpy(m->eos, m->found, (size_t)m->eosN * sizeof(int32_t));
  for (int32_t k = 0; k < m->eosN; k++)
    if (m->eos[k] < m->rows) decode_row(m, m->eos[k]);
  for (int32_t k = 0; k < m->eosN; k++)
    if (m->eos[k] >= m->rows) {
      model_free(m);
      return fail(env, "create: a row of </s> is outside the matrix");
    }
  napi_value out;
  if (napi_create_external(env, m, finalize, NULL, &out) != napi_ok) {
    model_free(m);
    return NULL;
  }
  return out;
}

/** embed(handle, line Uint8Array, end, hidden Float32Array) → count of rows summed (0: none). */
napi_value fasttext_embed(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Model *m;
  uint8_t *line;
  float *hidden;
  size_t nl, nh;
  uint32_t end;
  if (argc < 4 || napi_get_value_external(env, argv[0], (void **)&m) != napi_ok) return fail(env, "embed: handle");
  if (!typed(env, argv[1], napi_uint8_array, (void **)&line, &nl)) return fail(env, "embed: line");
  if (napi_get_value_uint32(env, argv[2], &end) != napi_ok || end > nl) return fail(env, "embed: end");
  if (!typed(env, argv[3], napi_float32_array, (void **)&hidden, &nh) || nh < (size_t)m->dim) return fail(env, "embed: hidden");
  uint32_t count = embed(m, line, end, hidden);
  napi_value out;
  CHECK(napi_create_uint32(env, count, &out));
  return out;
}
