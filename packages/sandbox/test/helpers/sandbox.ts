// Starts a real sandbox for a test and talks HTTP to it (the sandbox's own copy of the tool's
// test/helpers/sandbox.ts, with what its tests use).
import { SignJWT } from 'jose';
import { mintToken } from '../../src/auth.js';
import { checkSeed, type Seed } from '../../src/seed.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/server.js';

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

/** A token signed with the right secret but crafted claims (for expiry and not-before tests). */
export async function craftedToken(
  claims: { sub: string; exp?: number; nbf?: number },
  secret = SECRET,
): Promise<string> {
  let jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer('contracts-sandbox')
    .setIssuedAt();
  if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
  if (claims.nbf !== undefined) jwt = jwt.setNotBefore(claims.nbf);
  return jwt.sign(new TextEncoder().encode(secret));
}
