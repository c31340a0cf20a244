// The value kinds a column holds per document: enough to evaluate filters exactly, or to know it cannot.

/**
 * Tag of a JSON value in a column (one per document). `SPANS` is a non-empty array whose every
 * element is `[start, end, score]` with non-negative integer offsets below 2^32 and a numeric
 * score; anything else that is a non-empty array is `ODDARR`, which compiled rules never interpret
 * (those documents are evaluated exactly). The evaluator adds its own tags from `SPAN0` on.
 */
export const T = {
  ABSENT: 0,
  NULL: 1,
  FALSE: 2,
  TRUE: 3,
  NUM: 4,
  STR: 5,
  SPANS: 6,
  EMPTY: 7,
  ODDARR: 8,
  OBJ: 9,
  /** One `[start, end, score]` element of a SPANS value (num = its score). */
  SPAN0: 10,
  /** A present value the columns do not hold (an element of an irregular array, a span offset). */
  ANY: 11,
  /** jq produced no output (an optional step that failed). */
  NOOUT: 12,
  /** jq raised an error. */
  ERROR: 13,
  /** The compiled evaluator cannot tell: evaluate this document exactly. */
  UNKNOWN: 14,
} as const;

export type Tag = (typeof T)[keyof typeof T];

/** Most distinct strings per column and file that get dictionary codes; others are stored as code -1. */
export const MAX_DICT = 1000;

/** How deep object members are indexed: from an attribute set's `attributes` object, and from the document root. */
export const SET_DEPTH = 2;
export const DOC_DEPTH = 3;

/** The pseudo attribute set holding the documents' own fields (`metadata.*`, `source`, inline `attributes.*`). */
export const DOC_SET = '';

export const pathKey = (path: readonly string[]): string => JSON.stringify(path);
export const displayKey = (path: readonly string[]): string => path.join('.');

const MAX_OFFSET = 2 ** 32 - 1;

/** Whether every element of a non-empty array is a regular `[start, end, score]` span. */
export function isSpanList(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const s = a[i];
    if (!Array.isArray(s) || s.length !== 3) return false;
    const [b, e, c] = s as [unknown, unknown, unknown];
    if (typeof b !== 'number' || typeof e !== 'number' || typeof c !== 'number') return false;
    if (!Number.isInteger(b) || !Number.isInteger(e) || b < 0 || e < 0 || b > MAX_OFFSET || e > MAX_OFFSET) return false;
  }
  return a.length > 0;
}

export function tagOf(v: unknown): Tag {
  switch (typeof v) {
    case 'number':
      return T.NUM;
    case 'string':
      return T.STR;
    case 'boolean':
      return v ? T.TRUE : T.FALSE;
    case 'object':
      if (v === null) return T.NULL;
      if (Array.isArray(v)) return v.length === 0 ? T.EMPTY : isSpanList(v) ? T.SPANS : T.ODDARR;
      return T.OBJ;
    default:
      return T.ABSENT;
  }
}
