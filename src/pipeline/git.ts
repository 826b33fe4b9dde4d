// The little git the tool needs: the commit of the contract files, and the files changed since a
// ref (CLI) or between a pull request's base and head (Action).
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

/**
 * Absolute paths of files added, copied, modified or renamed on `head` since it left `base`
 * (`git diff base...head`). Both commits must be in the checkout.
 */
export async function filesChangedBetween(
  base: string,
  head: string,
  cwd: string,
): Promise<Set<string>> {
  let top: string;
  try {
    top = (await run('git', ['rev-parse', '--show-toplevel'], { cwd })).stdout.trim();
  } catch {
    throw new ConfigError('changed-only needs a git checkout of the repository');
  }
  for (const [name, ref] of [
    ['base', base],
    ['head', head],
  ] as const) {
    try {
      await run('git', ['cat-file', '-e', `${ref}^{commit}`], { cwd });
    } catch {
      throw new ConfigError(
        `changed-only cannot tell which files changed: the pull request's ${name} commit ${ref.slice(0, 12)} is not in this checkout, which is too shallow. Check out with actions/checkout and fetch-depth: 0.`,
      );
    }
  }
  try {
    const { stdout } = await run(
      'git',
      ['diff', '--name-only', '--diff-filter=ACMR', '-z', `${base}...${head}`, '--'],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
    );
    return new Set(
      stdout
        .split('\0')
        .filter((name) => name !== '')
        .map((name) => path.resolve(top, name)),
    );
  } catch {
    throw new ConfigError(
      `changed-only cannot tell which files changed: git finds no common ancestor of ${base.slice(0, 12)} and ${head.slice(0, 12)} in this checkout, which is too shallow. Check out with actions/checkout and fetch-depth: 0.`,
    );
  }
}
