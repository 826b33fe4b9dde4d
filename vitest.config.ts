import { configDefaults, defineConfig } from 'vitest/config';

// Two lanes, told apart by the file name (docs/development.md):
// - unit: `*.unit.test.ts`, tests of pure modules that start no sandbox, no process, no git
//   repository and no socket; `npm run test:unit`, under a minute.
// - integration: every other `*.test.ts`; `npm run test:integration`.
// `npm test` runs both. test/lanes.unit.test.ts keeps the unit files free of what integration needs.
const UNIT = ['test/**/*.unit.test.ts', 'packages/*/test/**/*.unit.test.ts'];
const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: { name: 'integration', include: ALL, exclude: [...configDefaults.exclude, ...UNIT] },
      },
    ],
  },
});
