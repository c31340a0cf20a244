// The contamination report (`assay decon report`, `decon.report`) and eval item texts (`decon.items`) as the app and the CLI see them.

/** Tokens of a set of documents: `exact` when every one has a tokenizer count in the index, else ⌈UTF-8 bytes / 4⌉ summed. */
export interface DeconTokens {
  count: number;
  kind: 'exact' | 'estimate';
}

/** Documents of one source that contain an item of a set (or, in `sources`, any item). */
export interface DeconSourceRow {
  source: string;
  docs: number;
  tokens: DeconTokens;
  /** Every document of the source that was read, contaminated or not. */
  totalDocs: number;
  totalTokens: DeconTokens;
}

/** One contaminated eval item: the documents whose `__decon__hits` name it. */
export interface DeconTopItem {
  /** `<set>:<item_id>`, as in `__decon__hits`. */
  ref: string;
  id: string;
  docs: number;
  /** The first matching document ids (at most 20), in reading order. */
  documents: string[];
  /** The item's text from the eval items file; null when it does not hold it. */
  text: string | null;
}

export interface DeconSetReport {
  set: string;
  /** Items in the eval set (from the eval items file); null when unknown, and then `fraction` is null too. */
  items: number | null;
  /** Distinct items named by at least one document. */
  hitItems: number;
  fraction: number | null;
  /** Documents containing at least one of its items, and their tokens. */
  docs: number;
  tokens: DeconTokens;
  bySource: DeconSourceRow[];
  /** Most contaminated items first (by documents), ties by ref; at most `top` of the request. */
  top: DeconTopItem[];
}

export interface DeconReport {
  schema: 'assay.decon-report';
  version: 1;
  /** The decon attribute name (`<NAME>__decon__overlap`) and the attribute set folder read. */
  name: string;
  attributeSet: string;
  created: string;
  /** Documents files read (absolute for the CLI, workspace-relative in the app). */
  files: string[];
  docs: number;
  /** Documents with at least one hit. */
  contaminated: number;
  /** Overlapping n-grams over all documents (sum of `__decon__ngrams`). */
  ngrams: number;
  /** Per source, documents containing any eval item. */
  sources: DeconSourceRow[];
  sets: DeconSetReport[];
  /** The eval items file read for item counts and texts, or null (why in `notes`). */
  itemsFile: string | null;
  notes: string[];
}

/** An eval item's text for the inspector: null when the items file does not hold it. */
export interface DeconItemText {
  ref: string;
  set: string;
  id: string;
  text: string | null;
}
