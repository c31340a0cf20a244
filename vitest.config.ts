// One vitest config for every layer, the renderer's store tests and the browser e2e specs included.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'configs/**/*.test.ts', 'renderer/**/*.test.ts', 'main/**/*.test.ts', 'e2e/**/*.test.ts', 'reliability/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves a core free: one worker on the 2-core CI machine, where the suite ran file after file
    // (1,370 s). Two workers: 982 and 991 s in two full runs, every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
