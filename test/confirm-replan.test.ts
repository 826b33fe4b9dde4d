// At a terminal, apply sends only what the person said yes to: a contract another writer changed
// between the yes and its PATCH is planned again, and the new plan is shown and asked for again;
// a no sends nothing more, and the other writer's change stays. The built CLI on a
// pseudo-terminal, against a sandbox.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { applyAtTerminal, cliUnder } from './helpers/apply-at-terminal.js';
import { openSandbox } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const B_ID = '1c000000-0000-4000-8000-000000000002';
const FIRST_PROMPT = 'Do you want to apply these changes to';
const AGAIN_PROMPT = 'Do you want to apply the changes planned again?';

/**
 * A catalog in front of the sandbox that, before it passes on the first PATCH of the second
 * contract, has dave change that contract's description (as another writer would, between the
 * person's yes and apply's PATCH): that PATCH is then refused, the contract having moved.
 */
async function racedCatalog(raceThePatch = true) {
  const opened = await openSandbox({ seed: threeSeed() });
  cleanups.push(() => opened.sandbox.close());
  const dir = await tempDir(threeFiles(false));
  cleanups.push(() => dir.remove());
  const daveToken = await opened.token('dave');
  let edited: number | undefined;
  const edit = async (): Promise<void> => {
    const answer = await opened.client.patch(
      `/v1/dataContracts/${B_ID}`,
      [{ op: 'replace', path: '/description', value: 'edited by dave' }],
      { token: daveToken },
    );
    edited = answer.status;
  };
  const target = opened.sandbox.url;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const method = request.method ?? 'GET';
        const url = request.url ?? '/';
        if (raceThePatch && method === 'PATCH' && url.endsWith(B_ID) && edited === undefined)
          await edit();
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type', 'if-match'])
          if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
        const forwarded = await fetch(`${target}${url}`, {
          method,
          headers,
          ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
        });
        const kept: Record<string, string> = {};
        for (const name of ['content-type', 'etag']) {
          const value = forwarded.headers.get(name);
          if (value !== null) kept[name] = value;
        }
        response.writeHead(forwarded.status, kept);
        response.end(Buffer.from(await forwarded.arrayBuffer()));
      })().catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  return {
    ...opened,
    cwd: dir.dir,
    env: { CATALOG_URL: `http://127.0.0.1:${port}`, CATALOG_TOKEN: await opened.token() },
    edited: () => edited,
    edit,
  };
}

/** Runs `contracts apply` on a pseudo-terminal, typing each answer once its prompt is shown. */
function answeringAtTerminal(
  c: { cwd: string; env: Record<string, string> },
  answers: { after: string; keys: string; before?: () => Promise<unknown> }[],
): Promise<{ code: number | null; out: string }> {
  const waiting = [...answers];
  return applyAtTerminal(c, (out, child) => {
    const next = waiting[0];
    if (next !== undefined && out.includes(next.after)) {
      waiting.shift();
      void (next.before?.() ?? Promise.resolve()).then(() => child.stdin.write(next.keys));
    }
  });
}

describe('a contract another writer changed after the yes', () => {
  it('is planned again and shown, and asked for again: no sends nothing more, and the other writer keeps their change', async () => {
    const c = await racedCatalog();
    const run = await answeringAtTerminal(c, [
      { after: FIRST_PROMPT, keys: 'yes\r' },
      { after: AGAIN_PROMPT, keys: 'no\r' },
    ]);
    expect(c.edited(), run.out).toBe(200);
    expect(run.out).toContain(AGAIN_PROMPT);
    // The new plan, as it is now: it would undo dave's change.
    expect(run.out).toMatch(/changed in the catalog after you said yes/);
    expect(run.out).toContain('~ description: "edited by dave" → "new b"');
    expect(run.code, run.out).toBe(1);
    const b = await c.client.get(`/v1/dataContracts/${B_ID}`);
    expect(b.body.description).toBe('edited by dave');
    // Nothing more was sent: the third contract was not touched.
    const third = await c.client.get('/v1/dataContracts/name/db.s.c.dataContract_c');
    expect(third.body.version).toBe(0.1);
    const patchedB = c.sandbox
      .requests()
      .filter((r) => r.method === 'PATCH' && r.path.endsWith(B_ID) && r.user === 'alice');
    expect(patchedB.every((r) => r.status !== 200)).toBe(true);
    expect(run.out).toMatch(/not attempted \(1\):\s+db\.s\.c\.dataContract_c/);
  }, 30_000);

  it('SIGTERM at the question asked again: nothing more is sent, the question is let go, exit 143', async () => {
    const c = await racedCatalog();
    let answered = false;
    let terminated = false;
    const run = await applyAtTerminal(c, (out, child) => {
      if (!answered && out.includes(FIRST_PROMPT)) {
        answered = true;
        child.stdin.write('yes\r');
      }
      if (!terminated && out.includes(AGAIN_PROMPT)) {
        terminated = true;
        process.kill(cliUnder(child.pid!)!, 'SIGTERM');
      }
    });
    expect(terminated, run.out).toBe(true);
    expect(run.code, run.out).toBe(143);
    expect(run.out).toContain('Interrupted at the question; nothing more was sent.');
    const b = await c.client.get(`/v1/dataContracts/${B_ID}`);
    expect(b.body.description).toBe('edited by dave');
    const third = await c.client.get('/v1/dataContracts/name/db.s.c.dataContract_c');
    expect(third.body.version).toBe(0.1);
  }, 30_000);

  it('a yes to the plan made again applies it, and the rest of the plan', async () => {
    const c = await racedCatalog();
    const run = await answeringAtTerminal(c, [
      { after: FIRST_PROMPT, keys: 'yes\r' },
      { after: AGAIN_PROMPT, keys: 'yes\r' },
    ]);
    expect(c.edited(), run.out).toBe(200);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('~ description: "edited by dave" → "new b"');
    expect(run.out).toContain('Apply complete: 3 changed, 0 unchanged.');
    for (const name of ['a', 'b', 'c']) {
      const contract = await c.client.get(
        `/v1/dataContracts/name/db.s.${name}.dataContract_${name}`,
      );
      expect(contract.body.description).toBe(`new ${name}`);
    }
  }, 30_000);

  it('while the person reads the plan: after the yes the whole plan is made again, and what differs is asked for again', async () => {
    const c = await racedCatalog(false);
    const run = await answeringAtTerminal(c, [
      { after: FIRST_PROMPT, keys: 'yes\r', before: c.edit },
      { after: AGAIN_PROMPT, keys: 'no\r' },
    ]);
    expect(c.edited(), run.out).toBe(200);
    expect(run.out).toContain('~ description: "edited by dave" → "new b"');
    expect(run.code, run.out).toBe(1);
    // Nothing was sent at all: the plan was stale before the first PATCH.
    expect(c.sandbox.requests().filter((r) => r.user === 'alice' && r.method !== 'GET')).toEqual(
      [],
    );
    expect(run.out).toMatch(/Apply stopped: db\.s\.b\.dataContract_b failed with DECLINED/);
    expect(run.out).not.toContain('Apply complete');
  }, 30_000);
});
