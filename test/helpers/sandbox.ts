// Starts a real sandbox for a test and talks HTTP to it: the sandbox package's own helper, and
// what the tool's tests add to it.
import { cp } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox, Seed } from '@contracts-gitops/sandbox';
import { openSandbox, seed } from '../../packages/sandbox/test/helpers/sandbox.js';
import { tempDir } from './temp-dir.js';

export {
  openSandbox,
  SECRET,
  seed,
  type Client,
} from '../../packages/sandbox/test/helpers/sandbox.js';

/** A user who may view, edit and search. */
export const EDITOR = {
  name: 'alice',
  permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
};

/** A seed with only the editor, the given assets and contracts, and no data products. */
export function editorSeed(assets: unknown[], dataContracts: unknown[]): Seed {
  return seed({ users: [EDITOR], assets, dataProducts: [], dataContracts });
}

/** A logged request's path within the catalog interface: /v1/…, under either profile (openmetadata serves it under /api). */
export function interfacePath(path: string): string {
  return path.startsWith('/api/v1/') ? path.slice('/api'.length) : path;
}

/** A create sent straight to the sandbox, as another client would send it: its status and body. */
export async function postContract(
  sandbox: Sandbox,
  env: { CATALOG_TOKEN: string },
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${sandbox.url}/v1/dataContracts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${env.CATALOG_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/**
 * A sandbox and an empty working folder beside it, with the CLI's CATALOG_URL and CATALOG_TOKEN
 * (alice's); both are removed by `cleanups`.
 */
export async function sandboxWithFolder(
  cleanups: (() => Promise<unknown>)[],
  options: Parameters<typeof openSandbox>[0] = {},
) {
  const opened = await openSandbox(options);
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir();
  cleanups.push(() => dir.remove());
  return {
    ...opened,
    cwd: dir.dir,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token() },
  };
}

/**
 * A sandbox under the openmetadata profile (the options given beside it) and a working folder
 * holding the shipped OpenMetadata example files in `contracts/`, as sandboxWithFolder gives.
 */
export async function openMetadataDemo(
  cleanups: (() => Promise<unknown>)[],
  options: Omit<NonNullable<Parameters<typeof openSandbox>[0]>, 'profile'> = {},
) {
  const opened = await sandboxWithFolder(cleanups, { ...options, profile: 'openmetadata' });
  await cp(
    path.resolve(import.meta.dirname, '..', '..', 'examples', 'openmetadata', 'contracts'),
    path.join(opened.cwd, 'contracts'),
    { recursive: true },
  );
  return opened;
}

/**
 * The requests of `requests` that could write: all but reads. While files load, plan reads the
 * live contracts of those found valid; a run with an invalid file writes nothing.
 */
export function writesAmong<T extends { method: string }>(requests: readonly T[]): T[] {
  return requests.filter((request) => request.method !== 'GET');
}
