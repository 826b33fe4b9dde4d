// What a run of the bench measures and how often: its command line (`--quick`, `--only`), the
// sizes, latencies, concurrency and targets, and the programs it times.
import path from 'node:path';

export const quick = process.argv.includes('--quick');
// npm scripts run from the package root.
export const root = process.cwd();
export const CLI = path.join(root, 'dist', 'cli.cjs');
export const WRAPPER = path.join(root, 'bench', 'rss-wrapper.mjs');
export const FLOOR_LOOP = path.join(root, 'bench', 'floor-loop.mjs');
export const MINIMAL_CLIENT = path.join(root, 'bench', 'minimal-client.mjs');
export const LEAST = path.join(root, 'bench', 'least.mjs');
export const SECRET = 'bench-secret';
export const CONCURRENCY = 8;
export const RUNS = quick ? 1 : 3;
export const PLAN_SIZES = quick ? [200, 1000] : [3000, 10_000];
/** The largest plan size: the one the targets are set at. */
export const LARGEST = PLAN_SIZES[PLAN_SIZES.length - 1]!;
export const APPLY_SIZE = quick ? 200 : 1000;
/**
 * Milliseconds the sandbox adds to every request (`--faults latency=…`) in the rows that price the
 * tool against a catalog across a network, as real ones are; the targets are set on these.
 */
export const LATENCIES_MS = quick ? [0, 5] : [0, 5, 20];
/**
 * The largest ratio to the per-name fetch floor (one GET a contract) plan may take, by latency
 * (issue #69: a full plan reads by pages, well under the floor of reading by name).
 */
export const PLAN_TARGETS: Record<number, number> = { 20: 0.15 };
/**
 * The most plan's CPU may be against the least (bench/least.mjs: the files read and validated with
 * js-yaml and ajv, the live contracts read by the catalog's list), issue #69. It replaces issue
 * #50's ratio to the per-name minimal client, which stays as a row of its own.
 */
export const LEAST_CPU_TARGET = 1.5;
/**
 * Settings a user with a memory limit can give plan, which take effect only as the process starts
 * (docs/performance.md, "Running with a memory limit"): Node's young generation capped at 4 MiB a
 * semi-space (the default grows to 16), which only NODE_OPTIONS or Node's command line sets; glibc's
 * malloc returning every block of 128 KiB or more to the system when it is freed (its default
 * raises that threshold to the largest block freed, so later blocks of that size stay in the
 * process), which only the environment sets; and both. Each is run at the largest plan size.
 */
export const MEMORY_SETTINGS: { label: string; key: string; env: Record<string, string> }[] = [
  {
    label: 'NODE_OPTIONS=--max-semi-space-size=4',
    key: 'smallYoungGeneration',
    env: { NODE_OPTIONS: '--max-semi-space-size=4' },
  },
  {
    label: 'MALLOC_MMAP_THRESHOLD_=131072',
    key: 'fixedMmapThreshold',
    env: { MALLOC_MMAP_THRESHOLD_: '131072' },
  },
  {
    label: 'both',
    key: 'bothMemorySettings',
    env: { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_MMAP_THRESHOLD_: '131072' },
  },
];
/** Issue #69's targets for the rows beside plan at +20 ms (the one-file, drift and prune rows). */
export const TARGET_LATENCY_MS = 20;
/** A plan of one file of the catalog ÷ the full plan. */
export const ONE_FILE_TARGET = 0.3;
/** drift, and plan --prune, ÷ plan. */
export const DRIFT_PRUNE_TARGET = 1.2;
/** Apply (fresh, and from a saved plan) ÷ the same PATCHes sent bare, at this latency. */
export const APPLY_TARGET = 1.5;
export const APPLY_TARGET_LATENCY_MS = 5;
/** The largest catalog, planned once at +20 ms, and what it aims at. */
export const HUGE_SIZE = 100_000;
export const HUGE_WALL_TARGET_MS = 60_000;
export const HUGE_MEMORY_TARGET_MIB = 1024;

/** `--only a,b` (or `--only=a,b`): the blocks named, or undefined for all. */
export function onlyBlocks(argv: readonly string[]): string[] | undefined {
  const at = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  if (at === -1) return undefined;
  const value = argv[at]!.startsWith('--only=') ? argv[at]!.slice('--only='.length) : argv[at + 1];
  if (value === undefined || value.startsWith('--'))
    throw new Error('--only takes a comma-separated list of blocks');
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
