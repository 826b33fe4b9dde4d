// The workspaces the blocks share, each made once a run where the first block that needs it asks:
// the plan sizes' (with what the plan block learnt of them), the apply workspace and its saved
// plan, and the managed workspace (a git checkout whose contracts carry its marker).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Plan } from '../../src/plan/types.js';
import { generateWorkspace, writeSeed, type Workspace } from '../generate.js';
import type { FloorRequest } from '../send-all.mjs';
import { APPLY_SIZE, CONCURRENCY } from './options.js';
import { timeCommand } from './processes.js';
import { startSandbox, token } from './sandbox.js';

/** The folder every workspace of this run is made in; removed at the end (removeWork). */
export const work = mkdtempSync(path.join(tmpdir(), 'contracts-bench-'));

/** Folders made elsewhere than `work` (memoryFolder), removed with it. */
const elsewhere: string[] = [];

export function removeWork(): void {
  rmSync(work, { recursive: true, force: true });
  for (const dir of elsewhere) rmSync(dir, { recursive: true, force: true });
}

/**
 * A folder in memory (/dev/shm, where it has room for `bytes` and twice more) for a workspace of
 * many files, else one in `work`: on this machine's disk, removing 100,000 files took 75 s, which
 * would be most of the block's time and measure nothing. The files a plan reads are in the page
 * cache either way, having just been written.
 */
export function memoryFolder(name: string, bytes: number): string {
  const shm = '/dev/shm';
  try {
    if (existsSync(shm)) {
      const { bavail, bsize } = statfsSync(shm);
      if (bavail * bsize > 3 * bytes) {
        const dir = mkdtempSync(path.join(shm, 'contracts-bench-'));
        elsewhere.push(dir);
        return path.join(dir, name);
      }
    }
  } catch {
    // No room, or no such file system: on disk.
  }
  return path.join(work, name);
}

/**
 * Each plan size's workspace, the GET by name plan sends for each of its contracts, and the median
 * time of `validate` over its files (a whole process, with no sandbox running): what plan must do
 * before its first request, and the validate row's figure for the largest size. Filled by the
 * plan block.
 */
export const planWorkspaces = new Map<
  number,
  {
    workspace: Workspace;
    gets: FloorRequest[];
    /** Every GET plan sends, as the sandbox logged them: what the minimal client sends. */
    planRequests: FloorRequest[];
    validateMs: number;
    /** The plain loop over the same files (bench/plain-validate.mjs), RUNS times: time and CPU. */
    plain: { ms: number[]; cpuMs: number[] };
  }
>();

/** The apply workspace (every contract changed), its saved plan and the plan's PATCHes. */
export interface ApplyWorkspace {
  workspace: Workspace;
  planFile: string;
  plan: Plan;
  patches: { method: 'PATCH'; path: string; body: string }[];
}

let applyWorkspace: ApplyWorkspace | undefined;

/** The apply workspace of APPLY_SIZE contracts, all changed, planned once (untimed) and saved. */
export async function applyWorkspaceOf(): Promise<ApplyWorkspace> {
  if (applyWorkspace !== undefined) return applyWorkspace;
  const dir = path.join(work, `apply-${APPLY_SIZE}`);
  const workspace = generateWorkspace(dir, APPLY_SIZE, { changedFraction: 1 });
  const planFile = path.join(dir, 'plan.json');
  const sandbox = await startSandbox(workspace.seedFile);
  const made = await timeCommand(['plan', 'contracts', '--out', planFile], dir, {
    CATALOG_URL: sandbox.url,
    CATALOG_TOKEN: token,
  });
  await sandbox.stop();
  if (made.code !== 0) throw new Error(`plan exited ${made.code}`);
  const plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
  const patches = plan.changes
    .filter((c) => c.action === 'update')
    .map((c) => ({
      method: 'PATCH' as const,
      path: `/v1/dataContracts/${c.id!}`,
      body: JSON.stringify(c.patch),
    }));
  applyWorkspace = { workspace, planFile, plan, patches };
  return applyWorkspace;
}

/** The repository the managed workspace's origin names, and its markers. */
const REPOSITORY = 'https://github.com/bench/contracts';
/** The environment that names REPOSITORY to the CLI whatever the bench's own environment says. */
export const MANAGED_ENV = {
  GITHUB_REPOSITORY: 'bench/contracts',
  GITHUB_SERVER_URL: 'https://github.com',
};

/** The managed workspace: the files, the contracts whose files were deleted, its seed. */
export interface ManagedWorkspace {
  workspace: Workspace;
  /** The contract files deleted in the second commit, which `plan --prune` deletes. */
  deleted: string[];
  /** How long the files took to write, and git to commit them. */
  generateMs: number;
  gitMs: number;
}

const managed = new Map<number, ManagedWorkspace>();

function git(dir: string, args: string[]): string {
  const result = spawnSync(
    'git',
    [
      '-c',
      'user.name=bench',
      '-c',
      'user.email=bench@example.invalid',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) throw new Error(`git ${args[0]!} failed: ${result.stderr}`);
  return result.stdout.trim();
}

/**
 * `n` contracts in a git checkout whose origin is REPOSITORY: the files committed, then `deleted`
 * of them removed in a second commit; the seed's contracts, those of the deleted files too, each
 * carry the marker of its file at the first commit, as an apply from that commit writes it. So a
 * plan re-marks nothing, and `plan --prune` has the deleted files' contracts to delete, with
 * their proof in the history.
 */
export function managedWorkspaceOf(n: number, deletions: number): ManagedWorkspace {
  const known = managed.get(n);
  if (known !== undefined) return known;
  const dir = path.join(work, `managed-${n}`);
  let started = performance.now();
  const workspace = generateWorkspace(dir, n, { filesOnly: true });
  const generateMs = performance.now() - started;
  started = performance.now();
  git(dir, ['init', '--quiet', '--initial-branch=main']);
  git(dir, ['remote', 'add', 'origin', `${REPOSITORY}.git`]);
  git(dir, ['add', 'contracts']);
  git(dir, ['commit', '--quiet', '-m', 'contracts']);
  const commit = git(dir, ['rev-parse', 'HEAD']);
  // Spread over the catalog, none of them the one file planned alone.
  const step = Math.floor(n / deletions);
  const deleted = Array.from(
    { length: deletions },
    (_, k) => `contracts/table_${String(k * step + 1).padStart(5, '0')}.yaml`,
  );
  git(dir, ['rm', '--quiet', ...deleted]);
  git(dir, ['commit', '--quiet', '-m', 'delete some contracts']);
  const gitMs = performance.now() - started;
  workspace.seedFile = writeSeed(dir, n, {
    managedBy: (file) => `${REPOSITORY}/blob/${commit}/${file}`,
  });
  const made = { workspace, deleted, generateMs, gitMs };
  managed.set(n, made);
  return made;
}

/** `--concurrency` as every timed command takes it. */
export const CONCURRENCY_FLAG = ['--concurrency', String(CONCURRENCY)];

/** How many files of the managed workspace a later commit deletes, for `plan --prune` to delete. */
export const PRUNED = 10;
