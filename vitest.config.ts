// One vitest config for every layer, the renderer's store tests and the browser e2e specs included.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'configs/**/*.test.ts', 'renderer/**/*.test.ts', 'main/**/*.test.ts', 'e2e/**/*.test.ts', 'reliability/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
