// One vitest config for every layer; e2e specs run in their own project once the app exists.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts', 'configs/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
