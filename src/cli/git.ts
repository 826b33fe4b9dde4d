// The little git the CLI needs: the commit of the contract files, and files changed since a ref.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '../errors.js';

const run = promisify(execFile);

/** The commit being planned: GITHUB_SHA in Actions, else HEAD, else null outside a repository. */
export async function currentCommit(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  if (env.GITHUB_SHA !== undefined && /^[0-9a-f]{40}$/.test(env.GITHUB_SHA)) return env.GITHUB_SHA;
  try {
    const { stdout } = await run('git', ['rev-parse', 'HEAD'], { cwd });
    return stdout.trim() || null;
  } catch {
    return null;
  }
}

/** Absolute paths of files added, copied, modified or renamed since `ref` (committed or not). */
export async function filesChangedSince(ref: string, cwd: string): Promise<Set<string>> {
  if (ref.startsWith('-')) throw new ConfigError(`--changed-since takes a git ref, got '${ref}'`);
  let top: string;
  try {
    top = (await run('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
  } catch {
    throw new ConfigError('--changed-since needs a git checkout, and this directory is not in one');
  }
  try {
    await run('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd });
  } catch {
    throw new ConfigError(
      `--changed-since: git does not know '${ref}'. In a shallow checkout, fetch more history (actions/checkout with fetch-depth: 0).`,
    );
  }
  const { stdout } = await run(
    'git',
    ['diff', '--name-only', '--diff-filter=ACMR', '-z', ref, '--'],
    { cwd, maxBuffer: 64 * 1024 * 1024 },
  );
  const untracked = await run('git', ['ls-files', '--others', '--exclude-standard', '-z'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  const changed = stdout
    .split('\0')
    .filter((name) => name !== '')
    .map((name) => path.resolve(top, name));
  const added = untracked.stdout
    .split('\0')
    .filter((name) => name !== '')
    .map((name) => path.resolve(cwd, name));
  return new Set([...changed, ...added]);
}
