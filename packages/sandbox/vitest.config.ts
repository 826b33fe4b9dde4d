import { defineConfig } from 'vitest/config';

// The sandbox's own tests, when run from this folder (`npm test -w @contracts-gitops/sandbox`);
// the root's configuration runs them with every other test.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
