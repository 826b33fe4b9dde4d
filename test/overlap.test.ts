// Plan reads live contracts while the files still load: each file's contract is read as soon as
// the file is found valid, the plan lists its changes in path order all the same, and a run with
// an invalid file ends with the files' problems alone, having written nothing.
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogClient } from '../src/catalog/client.js';
import { loadContracts } from '../src/read/load.js';
import { FileFeed } from '../src/read/file-feed.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import type { Sandbox } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { interfacePath, openSandbox, writesAmong } from './helpers/sandbox.js';
import { tempDir } from './helpers/temp-dir.js';

const root = path.resolve(import.meta.dirname, '..');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** A folder holding the example contracts (and `extra` files), removed after the test. */
async function workspace(extra: Record<string, string> = {}): Promise<string> {
  const dir = await tempDir(extra);
  cleanups.push(() => dir.remove());
  await cp(path.join(root, 'contracts'), path.join(dir.dir, 'contracts'), { recursive: true });
  return dir.dir;
}

async function demoCatalog(): Promise<{ sandbox: Sandbox; client: CatalogClient; token: string }> {
  const opened = await openSandbox();
  cleanups.push(() => opened.sandbox.close());
  const token = await opened.token('alice');
  const client = new CatalogClient({ baseUrl: opened.sandbox.url, token });
  cleanups.push(() => client.close());
  return { sandbox: opened.sandbox, client, token };
}

/** The contract names the sandbox was asked for by name, in the order asked. */
function contractReads(sandbox: Sandbox): string[] {
  const prefix = '/dataContracts/name/';
  return sandbox
    .requests()
    .filter((r) => r.method === 'GET' && r.path.includes(prefix))
    .map((r) => decodeURIComponent(r.path.slice(r.path.indexOf(prefix) + prefix.length)));
}

/** Resolves once `done()` holds, checking every few milliseconds for at most five seconds. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5000) throw new Error('waited five seconds in vain');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('reads while the files load', () => {
  it('reads a file’s live contract as soon as it is handed over, and lists the changes in path order', async () => {
    const { sandbox, client } = await demoCatalog();
    const cwd = await workspace();
    const { files } = await loadContracts(['contracts'], cwd);
    expect(files.length).toBeGreaterThan(3);
    const whole = await readAndPlanEach(files, client);
    sandbox.clearRequests();

    const feed = new FileFeed();
    const planning = readAndPlanEach(feed, client);
    // Handed over last file first, each with its place in path order.
    const last = files.length - 1;
    feed.push(files[last]!, last);
    await until(() => contractReads(sandbox).length === 1);
    expect(feed.closed).toBe(false);
    expect(contractReads(sandbox)).toEqual([files[last]!.identity.fullyQualifiedName]);
    for (let place = last - 1; place >= 0; place--) feed.push(files[place]!, place);
    feed.close();
    const { changes } = await planning;
    expect(changes.map((change) => change.file)).toEqual(files.map((file) => file.file));
    expect(changes).toEqual(whole.changes);
  });

  it('an aborted feed reads nothing more, looks no asset up, and plans nothing', async () => {
    const { sandbox, client } = await demoCatalog();
    const cwd = await workspace();
    const { files } = await loadContracts(['contracts'], cwd);
    sandbox.clearRequests();
    const feed = new FileFeed();
    const planning = readAndPlanEach(feed, client);
    feed.push(files[0]!, 0);
    await until(() => contractReads(sandbox).length === 1);
    feed.abort();
    expect(() => feed.push(files[1]!, 1)).toThrow('not open');
    expect((await planning).changes).toEqual([]);
    const asked = sandbox.requests().length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sandbox.requests()).toHaveLength(asked);
    expect(sandbox.requests().map((r) => r.path)).toEqual([
      expect.stringContaining(`/dataContracts/name/`),
    ]);
  });
});

describe('an invalid file among files being read', () => {
  const bad = {
    'contracts/zz-bad.yaml':
      'name: x\nfullyQualifiedName: y\nentity: { type: table, fullyQualifiedName: z }\nentityStatus: Live\n',
  };
  const said = 'Error: 1 problem in contract files; nothing was written to the catalog.\n';
  const problem =
    "contracts/zz-bad.yaml:4:15 entityStatus must be one of Draft, Active, Deprecated, In Review, Approved, Archived, Rejected or Unprocessed, got 'Live'";

  it('ends plan and apply with its problem alone, having written nothing', async () => {
    const { sandbox, token } = await demoCatalog();
    const cwd = await workspace(bad);
    for (const args of [['plan'], ['apply', '--auto-approve'], ['plan', '--json']]) {
      const run = await cli(args, {
        cwd,
        env: { CATALOG_URL: sandbox.url, CATALOG_TOKEN: token },
      });
      expect(run.code).toBe(1);
      if (args.includes('--json'))
        expect(JSON.parse(run.out)).toMatchObject({
          valid: false,
          problems: [{ file: 'contracts/zz-bad.yaml', line: 4, column: 15 }],
        });
      else expect(run.out).toBe(`${problem}\n`);
      expect(run.err).toBe(said);
    }
    expect(writesAmong(sandbox.requests())).toEqual([]);
  });

  it('says its problem, not the catalog’s refusal of the token or its absence', async () => {
    const { sandbox } = await demoCatalog();
    const cwd = await workspace(bad);
    const refused = await cli(['plan'], {
      cwd,
      env: { CATALOG_URL: sandbox.url, CATALOG_TOKEN: 'not-a-token' },
    });
    expect(refused.code).toBe(1);
    expect(refused.out).toBe(`${problem}\n`);
    expect(refused.err).toBe(said);
    // Port 9 (discard): nothing listens there.
    const unreachable = await cli(['plan'], {
      cwd,
      env: { CATALOG_URL: 'http://127.0.0.1:9', CATALOG_TOKEN: 'not-a-token' },
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.out).toBe(`${problem}\n`);
    expect(unreachable.err).toBe(said);
  });
});

/**
 * Plans the files `edges` (named to come first and last) with 300 of ours between: several of the
 * loader's chunks, so that the last is found long after the first. The run, the contract paths it
 * read one by one (the catalog's list, which 300 files may have read, names no file's contract),
 * and its writes.
 */
async function planAmongMany(
  profile: 'spec' | 'openmetadata',
  edges: Record<string, string>,
  between: (name: string) => string,
): Promise<{ out: string; code: number; read: string[]; writes: unknown[] }> {
  const opened = await openSandbox({ profile });
  cleanups.push(() => opened.sandbox.close());
  const files = { ...edges };
  for (let i = 0; i < 300; i++)
    files[`contracts/m${String(i).padStart(3, '0')}.yaml`] = between(`m${i}`);
  const dir = await tempDir(files);
  cleanups.push(() => dir.remove());
  const run = await cli(['plan'], {
    cwd: dir.dir,
    env: { CATALOG_URL: opened.sandbox.url, CATALOG_TOKEN: await opened.token('alice') },
  });
  const requests = opened.sandbox.requests();
  return {
    out: run.out,
    code: run.code,
    read: requests
      .map((r) => interfacePath(r.path))
      .filter((p) => p.startsWith('/v1/dataContracts/')),
    writes: writesAmong(requests),
  };
}

describe('a file that cannot be planned', () => {
  const ours = (name: string, status = 'Draft') =>
    `name: ${name}\nfullyQualifiedName: db.s.${name}.dataContract_${name}\nentity: {type: table, fullyQualifiedName: db.s.${name}}\nentityStatus: ${status}\n`;

  it('the connected catalog cannot store: is never read, whether it is found before or after the catalog names its profile', async () => {
    const run = await planAmongMany(
      'openmetadata',
      {
        'contracts/a-active.yaml': ours('a_active', 'Active'),
        'contracts/zz-active.yaml': ours('zz_active', 'Active'),
      },
      (name) => ours(name),
    );
    expect(run.code).toBe(1);
    expect(run.out).toContain('contracts/a-active.yaml:4:15 entityStatus Active is not a status');
    expect(run.out).toContain('contracts/zz-active.yaml:4:15 entityStatus Active is not a status');
    expect(run.read.filter((p) => p.includes('_active'))).toEqual([]);
    expect(run.writes).toEqual([]);
  });

  it('an ODCS file that names no catalog asset: is never read either, first or last among many', async () => {
    const unnamed = (name: string) =>
      `apiVersion: v3.1.0\nkind: DataContract\nid: ${name}\nversion: 1.0.0\nname: ${name}\nstatus: active\nschema:\n  - name: ${name}\n    properties:\n      - name: id\n        logicalType: integer\n`;
    const run = await planAmongMany(
      'spec',
      { 'contracts/a.odcs.yaml': unnamed('a_first'), 'contracts/zz.odcs.yaml': unnamed('zz_last') },
      (name) => ours(name),
    );
    expect(run.code).toBe(1);
    expect(run.out).toContain('contracts/a.odcs.yaml:1:1 the document names no catalog asset');
    expect(run.out).toContain('contracts/zz.odcs.yaml:1:1 the document names no catalog asset');
    expect(run.read.filter((p) => !/dataContract_m\d+$/.test(p))).toEqual([]);
    expect(run.writes).toEqual([]);
  });
});
