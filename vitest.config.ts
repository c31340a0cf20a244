// One vitest config for every layer, the renderer's store tests and the browser e2e specs included.
// Two groups: every file without a timing bound on two workers (both cores), then the timed files one at a time.
import { configDefaults, defineConfig } from 'vitest/config';
import { TIMED_TESTS } from './scripts/test-groups.js';

const include = ['shared/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'configs/**/*.test.ts', 'renderer/**/*.test.ts', 'main/**/*.test.ts', 'e2e/**/*.test.ts', 'reliability/**/*.test.ts'];
const common = { testTimeout: 60_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      { test: { ...common, name: 'shared-cores', include, exclude: [...configDefaults.exclude, ...TIMED_TESTS], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { test: { ...common, name: 'timed', include: TIMED_TESTS, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
