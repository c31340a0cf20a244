// Public API of DataTrove-style summary statistics: MetricStats, grouping into rank files, merging, JSON.
export { MetricStats, plain, type MetricStatsJson } from './metric.js';
export { MetricStatsDict, nlargest } from './dict.js';
export { histogramKey, rankName, StatsCollector, type StatsCollectorOptions, type StatsFile } from './group.js';
export { mergeStatFolder, mergeStatsFiles, mergeStatsFolders, STATS_MERGED_NAME, type MergeOptions } from './merge.js';
export { extractDomain, hostOf, type DomainParts } from './domain.js';
export { numberOf, PyFloat, pyJsonDumps, pyJsonParse, type PyDict, type PyJson } from './pyjson.js';
export {
  DEFAULT_TOP_K_CONFIG,
  pyFloat,
  pyInt,
  STATS_GROUPS,
  type DocStatValues,
  type PyNumber,
  type StatsDocument,
  type StatsGroup,
  type TopKConfig,
} from './types.js';
export { STATS_BLOCKS, statsExtractor, type StatsBlock, type StatsExtractor } from '../tag/taggers/stats/blocks.js';
