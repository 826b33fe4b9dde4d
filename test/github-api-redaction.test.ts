// GitHub's API answers the Action reads are redacted before they are cut: an error page that
// quotes the workflow's token across the cut, or a git credential, leaves no run of it in the
// error the Action logs and posts (over HTTP, against a local server playing GitHub's API).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { callGitHub } from '../src/action/github-api.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function failingGitHub(body: string): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Every run of eight characters of `secret`. */
const runsOf = (secret: string) =>
  Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8));

describe('a GitHub API error page', () => {
  it('quoting the token across the 300th character leaves no run of it in the error', async () => {
    const token = `ghs_${'A1b2C3d4E5f6G7h8'.repeat(3)}`;
    for (const at of [280, 290, 296, 299]) {
      const url = await failingGitHub(`${'x'.repeat(at)}${token} trailing`);
      const error = await callGitHub(url, token, 'GET', '/repos/a/b').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message;
      expect(message).toContain('failed with status 502');
      for (const run of runsOf(token)) expect(message).not.toContain(run);
    }
  });

  it('quoting a git credential (an extraheader) leaves none of it', async () => {
    const basic = Buffer.from('x-access-token:ghs_SecretSecretSecret123').toString('base64');
    const url = await failingGitHub(`config: AUTHORIZATION: basic ${basic}`);
    const error = await callGitHub(url, 'another-token', 'GET', '/repos/a/b').catch(
      (e: unknown) => e,
    );
    for (const run of runsOf(basic)) expect((error as Error).message).not.toContain(run);
  });
});
