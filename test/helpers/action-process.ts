// Runs the Action's bundle (action/index.js) as GitHub runs it on one event: INPUT_* variables,
// the event's payload, the summary and output files, and nothing of the test's environment.
import { execFileSync, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir, type TempDir } from './temp-dir.js';

const bundle = path.resolve(import.meta.dirname, '../../action/index.js');

export interface ActionProcessRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  /** What the run set as its outputs (GITHUB_OUTPUT), by name. */
  outputs: Record<string, string>;
}

export interface ActionProcessOptions {
  workspace: string;
  base: string;
  head: string;
  inputs: Record<string, string>;
  githubUrl: string;
  repository: string;
  /** The event (pull_request by default); a schedule's payload names no pull request or branch. */
  event?: 'pull_request' | 'push' | 'schedule';
  cleanups: (() => Promise<unknown>)[];
  /** Called with all of stdout so far, each time more arrives, and the process itself. */
  onStdout?: (stdout: string, child: ReturnType<typeof spawn>) => void;
}

/** git in `cwd`, as a test's committer. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  ).trim();
}

/**
 * The bundle run in `workspace` on a `pull_request` event from `base` to `head` (or `push`),
 * with `inputs` (names without INPUT_); `cleanups` removes the runner's folder.
 */
export async function actionProcess(options: ActionProcessOptions): Promise<ActionProcessRun> {
  const runner: TempDir = await tempDir();
  options.cleanups.push(() => runner.remove());
  const summaryFile = path.join(runner.dir, 'summary.md');
  const outputFile = path.join(runner.dir, 'output.txt');
  const eventFile = path.join(runner.dir, 'event.json');
  const [owner, name] = options.repository.split('/');
  await writeFile(summaryFile, '');
  await writeFile(outputFile, '');
  await writeFile(
    eventFile,
    JSON.stringify(
      options.event === 'schedule'
        ? { schedule: '17 3 * * *' }
        : {
            action: 'synchronize',
            number: 42,
            pull_request: {
              number: 42,
              state: 'open',
              title: 'Edit the orders contract',
              base: { ref: 'main', sha: options.base, repo: { full_name: options.repository } },
              head: {
                ref: 'edit-orders',
                sha: options.head,
                repo: { full_name: options.repository },
              },
            },
            repository: { full_name: options.repository, name, owner: { login: owner } },
            sender: { login: 'octocat' },
          },
    ),
  );
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_EVENT_NAME: options.event ?? 'pull_request',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    GITHUB_API_URL: options.githubUrl,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: options.repository,
    GITHUB_RUN_ID: '777',
    GITHUB_SHA: options.head,
    RUNNER_TEMP: runner.dir,
  };
  for (const [name, value] of Object.entries(options.inputs))
    env[`INPUT_${name.toUpperCase()}`] = value;
  const child = spawn(process.execPath, [bundle], {
    cwd: options.workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    options.onStdout?.(stdout, child);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  const outputs: Record<string, string> = {};
  // GITHUB_OUTPUT uses heredoc blocks: name<<DELIMITER\nvalue\nDELIMITER
  for (const match of (await readFile(outputFile, 'utf8')).matchAll(
    /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm,
  ))
    outputs[match[1]!] = match[3]!;
  return { code, stdout, stderr, summary: await readFile(summaryFile, 'utf8'), outputs };
}

/**
 * `actionProcess` of `plan` against the catalog at `catalogUrl` with `catalogToken`, commenting
 * with `githubToken`; over `path` where given, else over the paths .contracts.yaml names.
 */
export function actionPlan(
  options: Omit<ActionProcessOptions, 'inputs'> & {
    catalogUrl: string;
    catalogToken: string;
    githubToken: string;
    path?: string;
  },
): Promise<ActionProcessRun> {
  const { catalogUrl, catalogToken, githubToken, path: paths, ...rest } = options;
  return actionProcess({
    ...rest,
    inputs: {
      COMMAND: 'plan',
      'CATALOG-URL': catalogUrl,
      'CATALOG-TOKEN': catalogToken,
      'GITHUB-TOKEN': githubToken,
      ...(paths === undefined ? {} : { PATH: paths }),
    },
  });
}
