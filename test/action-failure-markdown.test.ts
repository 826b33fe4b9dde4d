// The Action's summary and comment when no plan can be made: the catalog's words in the reason
// are plain text there, never HTML or markup that would change the comment (the Action bundle,
// against a local catalog that refuses the token with a hostile message).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actionPlan, git } from './helpers/action-process.js';
import { startFakeGitHub } from './helpers/fake-github.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const REPO = 'acme/contracts';
const GH_TOKEN = 'ghs_fake_token_for_tests';
const HOSTILE = '</summary><img src=x onerror=alert(1)> **bold** @everyone';

describe('a catalog that refuses with a hostile message', () => {
  it('is quoted as plain text in the summary and the comment', async () => {
    const catalog = createServer((request, response) => {
      request.resume();
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 401, message: HOSTILE }));
    });
    await new Promise<void>((resolve) => catalog.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => catalog.close(resolve)));
    const github = await startFakeGitHub(GH_TOKEN, REPO);
    cleanups.push(() => github.close());
    const workspace = await tempDir();
    cleanups.push(() => workspace.remove());
    await mkdir(path.join(workspace.dir, 'contracts'));
    await writeFile(
      path.join(workspace.dir, 'contracts', 'a.yaml'),
      'name: a\nfullyQualifiedName: db.s.a.dataContract_a\nentity: { type: table, fullyQualifiedName: db.s.a }\n',
    );
    git(workspace.dir, 'init', '-q', '-b', 'main');
    git(workspace.dir, 'add', '-A');
    git(workspace.dir, 'commit', '-q', '-m', 'base');
    const head = git(workspace.dir, 'rev-parse', 'HEAD');
    const run = await actionPlan({
      workspace: workspace.dir,
      base: head,
      head,
      githubUrl: github.url,
      repository: REPO,
      cleanups,
      catalogUrl: `http://127.0.0.1:${(catalog.address() as AddressInfo).port}`,
      catalogToken: 'a-token',
      githubToken: GH_TOKEN,
      path: 'contracts',
    });
    expect(run.code).toBe(1);
    expect(run.summary).toContain('No plan could be made, and nothing was sent');
    const comment = github.comments[0]!.body;
    for (const markdown of [run.summary, comment]) {
      expect(markdown).not.toContain('<img');
      expect(markdown).not.toContain('</summary>');
      expect(markdown).not.toContain('**bold**');
      expect(markdown).not.toContain('@everyone');
      expect(markdown).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });
});
