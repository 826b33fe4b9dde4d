// Starts a real sandbox for a test and talks HTTP to it.
import {
  checkSeed,
  mintToken,
  type Sandbox,
  type SandboxOptions,
  type Seed,
  startSandbox,
} from '@contracts-gitops/sandbox';
import { tempDir } from './temp-dir.js';

export const SECRET = 'test-secret-for-the-sandbox';

export interface Client {
  get(
    path: string,
    token?: string | null,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  patch(
    path: string,
    body: unknown,
    options?: { token?: string; contentType?: string; ifMatch?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

export async function openSandbox(
  options: Omit<SandboxOptions, 'secret'> & { seed?: Seed } = {},
): Promise<{ sandbox: Sandbox; client: Client; token: (user?: string) => Promise<string> }> {
  const sandbox = await startSandbox({ ...options, secret: SECRET });
  const tokens = new Map<string, string>();
  const token = async (user = 'alice'): Promise<string> => {
    let cached = tokens.get(user);
    if (cached === undefined) {
      cached = await mintToken(user, SECRET);
      tokens.set(user, cached);
    }
    return cached;
  };
  const read = async (response: Response): Promise<any> => {
    const text = await response.text();
    return text === '' ? undefined : JSON.parse(text);
  };
  const client: Client = {
    async get(path, given) {
      const auth = given === null ? {} : { authorization: `Bearer ${given ?? (await token())}` };
      const response = await fetch(`${sandbox.url}${path}`, { headers: auth });
      return { status: response.status, body: await read(response), headers: response.headers };
    },
    async patch(path, body, options = {}) {
      const response = await fetch(`${sandbox.url}${path}`, {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${options.token ?? (await token())}`,
          'content-type': options.contentType ?? 'application/json-patch+json',
          ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: await read(response), headers: response.headers };
    },
    async admin(method, path, body) {
      const response = await fetch(`${sandbox.root}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await token()}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await read(response) };
    },
  };
  return { sandbox, client, token };
}

export function seed(raw: unknown): Seed {
  return checkSeed(raw, 1_700_000_000_000);
}

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
 * The requests of `requests` that could write: all but reads. While files load, plan reads the
 * live contracts of those found valid; a run with an invalid file writes nothing.
 */
export function writesAmong<T extends { method: string }>(requests: readonly T[]): T[] {
  return requests.filter((request) => request.method !== 'GET');
}
