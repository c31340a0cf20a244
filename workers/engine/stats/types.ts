// Shared shapes of DataTrove-style summary statistics: typed stat values, groups, top-k settings.

/** A stat value as DataTrove holds it: the number and whether Python has it as a float (`len()` is an int). */
export interface PyNumber {
  value: number;
  float: boolean;
}

export const pyInt = (value: number): PyNumber => ({ value, float: false });
export const pyFloat = (value: number): PyNumber => ({ value, float: true });

/** One document's stats, in the order the extractor produced them (the order files are written in). */
export type DocStatValues = Map<string, PyNumber>;

/** `GROUP` in datatrove.pipeline.stats.config. */
export type StatsGroup = 'summary' | 'histogram' | 'fqdn' | 'suffix';
export const STATS_GROUPS: readonly StatsGroup[] = ['summary', 'histogram', 'fqdn', 'suffix'];

/** `TopKConfig`: groups whose keys are cut to the `topK` keys with the most documents. */
export interface TopKConfig {
  topKGroups: readonly StatsGroup[];
  topK: number;
}

export const DEFAULT_TOP_K_CONFIG: TopKConfig = { topKGroups: ['fqdn', 'suffix'], topK: 100_000 };

/** What the grouping reads of a document. */
export interface StatsDocument {
  id?: string;
  text: string;
  metadata: Record<string, unknown>;
}
