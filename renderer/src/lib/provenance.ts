// Where a document came from, as the inspector shows it: the crawl fields Parquet imports (FineWeb) and WARC extraction leave in `metadata`.

export interface ProvenanceField {
  key: string;
  label: string;
  value: string;
  /** The value is a web address the user may want to copy whole. */
  url?: boolean;
}

/** In display order; the first key present of each row wins (a WARC record has `warc_date`, FineWeb's row `date`). */
const ROWS: { keys: string[]; label: string; url?: boolean }[] = [
  { keys: ['url'], label: 'URL', url: true },
  { keys: ['dump'], label: 'dump' },
  { keys: ['warc_record_id'], label: 'WARC record' },
  { keys: ['warc_date', 'date'], label: 'crawled' },
  { keys: ['warc_filename', 'file_path'], label: 'WARC file' },
  { keys: ['language'], label: 'language' },
];

const shown = (v: unknown): string | null => (typeof v === 'string' ? (v === '' ? null : v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null);

/** The provenance fields a document's metadata holds (empty when it has none: the inspector then shows nothing). */
export function provenanceFields(metadata: Record<string, unknown> | undefined): ProvenanceField[] {
  if (!metadata) return [];
  const out: ProvenanceField[] = [];
  for (const row of ROWS) {
    const key = row.keys.find((k) => shown(metadata[k]) !== null);
    if (key === undefined) continue;
    let value = shown(metadata[key]) as string;
    const score = metadata.language_score;
    if (key === 'language' && typeof score === 'number') value += ` (${score.toFixed(2)})`;
    out.push({ key, label: row.label, value, ...(row.url && { url: true }) });
  }
  return out;
}
