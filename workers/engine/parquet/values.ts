// Parquet values as JSON: what hyparquet decodes (bigint, Date, bytes, nested) turned into values a Dolma document can hold.

/**
 * INT64 columns arrive as bigint: a safe integer becomes a number (FineWeb's token_count), a larger one
 * a decimal string so no digit is lost. Timestamps become ISO strings, raw bytes base64, nested lists and
 * structs are converted member by member.
 */
export function toJsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number | bigint>, toJsonValue);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toJsonValue(x)]));
  return v;
}

/** An id cell as a Dolma id: strings as they are, numbers and bigints in decimal; anything else has no id. */
export function idText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return null;
}
