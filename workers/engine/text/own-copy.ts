// Strings cut from a document that a long-lived cache keeps: copied, so the cache does not keep the document.

/**
 * s[lo, hi) as a string of its own. V8 makes a slice of 13 or more characters (and a regex match that long) a view
 * into its parent, so a cache key cut from a document keeps the whole document alive as long as the cache holds it.
 * Prefixing a character forces a copy (a flat string of the key alone), which the slice then points into.
 */
export const ownCopy = (s: string, lo = 0, hi = s.length): string => (hi - lo < 13 ? s.slice(lo, hi) : (' ' + s.slice(lo, hi)).slice(1));
