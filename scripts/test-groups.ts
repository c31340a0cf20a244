// Which test files assert how long something takes: they run one at a time after the rest, which share both cores.
// A bound on elapsed time holds on an idle core; beside another test file it can fail for reasons not in the code.

/** Files whose assertions bound a duration or a growth ratio (run last, one file at a time). */
export const TIMED_TESTS = [
  'e2e/editor.test.ts',
  'main/job-launcher.test.ts',
  'reliability/fuzz.test.ts',
  'reliability/regex.test.ts',
  'reliability/server.test.ts',
  'shared/recipe/load.test.ts',
  'workers/engine/index/build/text.test.ts',
  'workers/engine/io/read.test.ts',
  'workers/engine/mix/filters/jq/index.test.ts',
  'workers/engine/mix/filters/jq/limits.test.ts',
  'workers/engine/mix/filters/jq/perf.test.ts',
  'workers/engine/mix/filters/jsonpath/hostile.test.ts',
  'workers/engine/mix/filters/jsonpath/perf.test.ts',
  'workers/engine/mix/json.test.ts',
  'workers/engine/tag/hard-input.test.ts',
  'workers/engine/tag/pool-v8.test.ts',
  'workers/engine/tag/taggers/datatrove/hard-input.test.ts',
  'workers/engine/tag/taggers/datatrove/py-search.test.ts',
  'workers/engine/tag/taggers/dolma/hard-inputs.test.ts',
  'workers/engine/tag/taggers/dolma/punctuation.test.ts',
  'workers/engine/tag/taggers/fasttext/hard-inputs.test.ts',
  'workers/engine/tag/taggers/fasttext/span-budget.test.ts',
  'workers/engine/tag/taggers/stats/stats.test.ts',
  'workers/engine/text/spacy/tokenizer.test.ts',
  'workers/host/compare.test.ts',
  'workers/host/features.test.ts',
  'workers/host/preview-worker.test.ts',
];

/** Files that read the clock without bounding a duration, and why they may share a core. */
export const UNTIMED_CLOCK_READERS: Record<string, string> = {
  'workers/engine/index/lock.test.ts': 'dates a stale lock file two minutes back',
  'workers/engine/jobs/pool.test.ts': 'gives up waiting after 30 s, a deadline rather than a bound on speed',
};

/** What marks a test file as reading the clock (scripts/test-groups.test.ts checks each such file is placed). */
export const CLOCK_READING = /performance\.now\(\)|process\.hrtime|growthRatio\(|Date\.now\(\) *-/;
