// Secrets a catalog or a proxy quotes never show, whatever cuts the tool makes: an error page is
// redacted before it is cut to what an error quotes, so that a token the cut goes through is
// still found, and credentials of known shapes go whatever the token is. Checked on everything
// plan writes (human, --json, SARIF, --debug) against a local catalog that echoes them.
import { afterEach, describe, expect, it } from 'vitest';
import { mintToken } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { json, Started } from './helpers/hostile-catalog.js';

const started = new Started();
afterEach(() => started.stop());

/** Every run of 8 characters of `secret`. */
function pieces(secret: string): string[] {
  return Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8));
}

function expectNoPieceOf(secret: string, texts: readonly string[]): void {
  for (const text of texts)
    for (const piece of pieces(secret))
      expect(text, `a piece of a secret (${piece}) shows`).not.toContain(piece);
}

const PLAN_RUNS = [
  ['plan'],
  ['plan', '--json'],
  ['plan', '--format', 'sarif'],
  ['plan', '--debug'],
  ['plan', '--markdown'],
];

async function planOutputs(url: string, token: string): Promise<string[]> {
  const dir = await started.workspace();
  const texts: string[] = [];
  for (const profile of ['auto', 'openmetadata'])
    for (const args of PLAN_RUNS) {
      const run = await cli(args, {
        cwd: dir,
        env: { CATALOG_URL: url, CATALOG_TOKEN: token, CATALOG_PROFILE: profile },
      });
      texts.push(run.out, run.err);
    }
  return texts;
}

describe('an error page that quotes the token where the cut falls', () => {
  // The cut is at character 300 of the page, its white space folded: the token is placed so
  // that the cut goes through its signature, then through its payload.
  for (const [where, after] of [
    ['signature', (token: string) => token.length - 1 - 10],
    ['payload', (token: string) => token.split('.')[0]!.length + 12],
  ] as const)
    it(`shows no piece of the token when the cut goes through its ${where}`, async () => {
      const token = await mintToken('alice', 'a secret of the catalog only');
      const head = '<html>\n<body>\n  <h1>500 Internal Server Error</h1>\n  <p>upstream said: ';
      const folded = head.replace(/\s+/g, ' ').length;
      const filler = 'x'.repeat(300 - after(token) - folded);
      const page = `${head}${filler}${token}</p>\n</body>\n</html>`;
      expect(page.replace(/\s+/g, ' ').indexOf(token)).toBe(300 - after(token));
      const catalog = await started.catalog((_request, response) => {
        response.writeHead(500, { 'content-type': 'text/html' });
        response.end(page);
      });
      const texts = await planOutputs(catalog.url, token);
      expect(catalog.requests.length).toBeGreaterThan(0);
      // The page is quoted, with what stood for the token.
      expect(texts.join('\n')).toContain('upstream said: xxx');
      expect(texts.join('\n')).toContain('***');
      const [header, payload, signature] = token.split('.') as [string, string, string];
      expectNoPieceOf(signature, texts);
      expectNoPieceOf(payload, texts);
      expect(header.length).toBeGreaterThan(8);
    });
});

describe('credentials of known shapes, whatever the token', () => {
  const installation = 'ghs_16C7e42F292c6912E7710c838347Ae178B4a';
  const personal = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
  const fineGrained = 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';
  const basic = Buffer.from(`x-access-token:${installation}`).toString('base64');
  const otherJwt =
    'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzb21lb25lLWVsc2UifQ.b3RoZXItc2lnbmF0dXJlLW9mLXNvbWVvbmU';
  const quoted = [
    `http.https://github.com/.extraheader AUTHORIZATION: basic ${basic}`,
    `remote https://x-access-token:${installation}@github.com/o/r.git`,
    `env GITHUB_TOKEN=${personal} PAT=${fineGrained}`,
    `forwarded Authorization: Bearer ${otherJwt}`,
  ].join('\n');
  const secrets = [installation, personal, fineGrained, basic, otherJwt.split('.')[2]!];

  it('go from an error page that is not JSON', async () => {
    const catalog = await started.catalog((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(quoted);
    });
    const texts = await planOutputs(catalog.url, 'the-catalog-token-itself');
    expect(texts.join('\n')).toContain('AUTHORIZATION: basic ***');
    for (const secret of secrets) expectNoPieceOf(secret, texts);
  });

  it("go from a JSON error's message", async () => {
    const catalog = await started.catalog((_request, response) =>
      json(response, 400, { code: 400, message: quoted }),
    );
    const texts = await planOutputs(catalog.url, 'the-catalog-token-itself');
    expect(texts.join('\n')).toContain('x-access-token:***@github.com');
    for (const secret of secrets) expectNoPieceOf(secret, texts);
  });
});
