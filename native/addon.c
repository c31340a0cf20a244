// The addon's entry: the functions each kernel exports, and the argument helpers they share.
#include "assay.h"
#include <stdlib.h>

napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

int typed(napi_env env, napi_value v, napi_typedarray_type type, void **data, size_t *length) {
  bool is;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type t;
  if (napi_get_typedarray_info(env, v, &t, length, data, NULL, NULL) != napi_ok || t != type) return 0;
  return 1;
}

uint16_t *utf16_copy(napi_env env, napi_value v, size_t n) {
  uint16_t *t = malloc((n + 1) * sizeof(uint16_t));
  size_t copied;
  if (t != NULL && (napi_get_value_string_utf16(env, v, (char16_t *)t, n + 1, &copied) != napi_ok || copied != n)) {
    free(t);
    return NULL;
  }
  if (t != NULL) t[n] = 0;
  return t;
}

static int export(napi_env env, napi_value exports, const char *name, napi_callback f) {
  napi_value fn;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, f, NULL, &fn) == napi_ok && napi_set_named_property(env, exports, name, fn) == napi_ok;
}

// Context-aware (NAPI_MODULE_INIT), so worker threads may load it too; kernels keep no state shared between threads.
NAPI_MODULE_INIT() {
  // The exports' version: native-addon.ts refuses a binary built from other sources than the JavaScript expects.
  napi_value abi;
  if (napi_create_int32(env, ASSAY_ABI, &abi) != napi_ok || napi_set_named_property(env, exports, "abi", abi) != napi_ok) return NULL;
  if (!export(env, exports, "create", fasttext_create) || !export(env, exports, "embed", fasttext_embed) ||
      !export(env, exports, "ngramStats", gopher_ngram_stats) || !export(env, exports, "allDuplicateChars", gopher_all_duplicate) ||
      !export(env, exports, "topNgramChars", gopher_top_ngrams) || !export(env, exports, "gopherStats", gopher_stats_js) ||
      !export(env, exports, "spacyScanner", spacy_scanner) || !export(env, exports, "spacyScan", spacy_scan) ||
      !export(env, exports, "spacyWords", spacy_words) ||
      !export(env, exports, "spacyExpand", spacy_expand) || !export(env, exports, "rangeDuplicates", range_duplicates) ||
      !export(env, exports, "attrLines", attr_lines) ||
      !export(env, exports, "docLines", doc_lines) || !export(env, exports, "rowWriter", row_writer) ||
      !export(env, exports, "rowKey", row_key) || !export(env, exports, "rowAttrs", row_attrs) ||
      !export(env, exports, "piiFast", pii_fast) || !export(env, exports, "c4Phrases", c4_phrases) ||
      !export(env, exports, "c4Lines", c4_lines) || !export(env, exports, "gopherQualityTables", gopher_quality_tables) ||
      !export(env, exports, "gopherQuality", gopher_quality) || !export(env, exports, "lineEdits", line_edits) ||
      !export(env, exports, "c4QualityTables", c4_quality_tables) || !export(env, exports, "c4Quality", c4_quality) ||
      !export(env, exports, "repetitionDuplicates", repetition_duplicates) || !export(env, exports, "finewebLines", fineweb_lines))
    return NULL;
  return exports;
}
