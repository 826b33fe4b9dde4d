// No lost update: guarded PATCHes against concurrent appliers, the truth after lost answers,
// plans that cannot be swapped or edited, and the hostile inputs of the same report. Each runs
// the built CLI as a process against a sandbox process, as users and CI do.
import { execFileSync } from 'node:child_process';
import { writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../src/apply/apply-plan.js';
import { CatalogClient } from '../src/catalog/client.js';
import { parseContract } from '../src/contract/parse.js';
import type { Operation } from '../src/model/operation.js';
import { CatalogError, NetworkError } from '../src/model/errors.js';
import { assemblePlan, planChecksum } from '../src/plan/create-plan.js';
import { readAndPlanEach } from '../src/read/read-plan-inputs.js';
import { mintToken, seededRandom } from '@contracts-gitops/sandbox';
import { cli } from './helpers/cli.js';
import { cliProcess } from './helpers/cli-process.js';
import { forwarder } from './helpers/forwarder.js';
import { openSandbox, seed, writesAmong } from './helpers/sandbox.js';
import { spawnSandboxProcess, type SandboxProcess } from './helpers/sandbox-process.js';
import { tempDir } from './helpers/temp-dir.js';
import { threeFiles, threeSeed } from './helpers/three-tables.js';

const SECRET = 'lost-update-secret';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const FQN = 'db.s.shipments.dataContract_shipments';
const CONTRACT_ID = '5c000000-0000-4000-8000-000000000001';
const shipmentsSeed = () =>
  seed({
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
    ],
    assets: [
      {
        id: '5a000000-0000-4000-8000-000000000001',
        entityType: 'table',
        name: 'shipments',
        fullyQualifiedName: 'db.s.shipments',
        columns: ['id', 'carrier', 'eta'].map((name) => ({ name, dataType: 'VARCHAR' })),
      },
    ],
    dataProducts: [],
    dataContracts: [
      {
        id: CONTRACT_ID,
        name: 'shipments',
        fullyQualifiedName: FQN,
        entity: {
          id: '5a000000-0000-4000-8000-000000000001',
          type: 'table',
          fullyQualifiedName: 'db.s.shipments',
        },
        description: 'Shipments.',
        schema: ['id', 'carrier', 'eta'].map((name) => ({ name, dataType: 'VARCHAR' })),
        semantics: [{ name: 'hasOwner' }],
        version: 0.1,
      },
    ],
  });

/** A contract file for the shipments table with these columns, rules and description. */
function shipmentsFile(columns: string[], rules: string[], description = 'Shipments.'): string {
  return stringify({
    name: 'shipments',
    fullyQualifiedName: FQN,
    entity: { type: 'table', fullyQualifiedName: 'db.s.shipments' },
    description,
    schema: columns.map((name) => ({ name, dataType: 'VARCHAR' })),
    semantics: rules.map((name) => ({ name })),
  });
}

interface Catalog {
  sandbox: SandboxProcess;
  url: string;
  env: Record<string, string>;
  dir: string;
  /** GET a path of the catalog interface as alice. */
  get(route: string): Promise<any>;
  /** The methods of the catalog requests handled so far (admin routes excluded). */
  methods(): Promise<string[]>;
}

async function catalog(
  seedValue: unknown,
  args: string[] = [],
  files: Record<string, string> = {},
): Promise<Catalog> {
  const dir = await tempDir({ 'seed.json': JSON.stringify(seedValue), ...files });
  cleanups.push(() => dir.remove());
  const sandbox = spawnSandboxProcess([
    '--seed',
    path.join(dir.dir, 'seed.json'),
    '--secret',
    SECRET,
    ...args,
  ]);
  cleanups.push(() => sandbox.stop());
  const url = await sandbox.url;
  const token = await mintToken('alice', SECRET);
  return {
    sandbox,
    url,
    env: { CATALOG_URL: url, CATALOG_TOKEN: token },
    dir: dir.dir,
    get: async (route) =>
      (await fetch(`${url}${route}`, { headers: { authorization: `Bearer ${token}` } })).json(),
    methods: async () =>
      (
        (await (
          await fetch(`${url}/sandbox/requests`, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { data: { method: string }[] }
      ).data.map((r) => r.method),
  };
}

async function shipments(
  c: Catalog,
): Promise<{ version: number; description: string; columns: string[]; rules: string[] }> {
  const live = await c.get(`/v1/dataContracts/name/${FQN}`);
  return {
    version: live.version,
    description: live.description,
    columns: live.schema.map((column: { name: string }) => column.name),
    rules: live.semantics.map((rule: { name: string }) => rule.name),
  };
}

/** Writes `content` as contracts/shipments.yaml in a folder of its own (a checkout) and saves its plan there. */
async function savedPlan(c: Catalog, name: string, content: string): Promise<string> {
  const folder = path.join(c.dir, name);
  await mkdir(path.join(folder, 'contracts'), { recursive: true });
  await writeFile(path.join(folder, 'contracts', 'shipments.yaml'), content);
  const plan = await cliProcess(['plan', '--out', 'plan.json', '--detailed-exitcode'], {
    cwd: folder,
    env: c.env,
  });
  expect(plan.code, plan.out + plan.err).toBe(2);
  return path.join(folder, 'plan.json');
}

describe('concurrent applies never corrupt a contract', () => {
  it('the same saved plan applied twice at once: the plan lands once, the loser exits 1 saying why', async () => {
    for (let round = 0; round < 3; round++) {
      // Each request takes 30 ms, so both applies read the contract before either writes.
      const c = await catalog(shipmentsSeed(), ['--faults', 'latency=30']);
      const plan = await savedPlan(
        c,
        'a',
        shipmentsFile(['id', 'eta'], ['hasOwner', 'hasDescription']),
      );
      const runs = await Promise.all(
        [0, 1].map(() => cliProcess(['apply', plan], { cwd: path.dirname(plan), env: c.env })),
      );
      const codes = runs.map((r) => r.code).sort();
      expect(codes, runs.map((r) => r.out + r.err).join('\n---\n')).toEqual([0, 1]);
      const loser = runs.find((r) => r.code === 1)!;
      expect(loser.out + loser.err).toMatch(/changed since the plan was made|plan is stale/);
      expect(await shipments(c)).toMatchObject({
        columns: ['id', 'eta'],
        rules: ['hasOwner', 'hasDescription'],
      });
      await c.sandbox.stop();
    }
  }, 60_000);

  it('two different plans applied at once: the contract ends as one of them asked, nothing else removed', async () => {
    const c = await catalog(shipmentsSeed(), ['--faults', 'latency=30']);
    const first = await savedPlan(
      c,
      'a',
      shipmentsFile(['id', 'eta'], ['hasOwner', 'hasDescription']),
    );
    const second = await savedPlan(
      c,
      'b',
      shipmentsFile(['id', 'carrier'], ['hasOwner'], 'Parcels.'),
    );
    const runs = await Promise.all(
      [first, second].map((plan) =>
        cliProcess(['apply', plan], { cwd: path.dirname(plan), env: c.env }),
      ),
    );
    expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
    const after = await shipments(c);
    const wanted =
      runs[0]!.code === 0
        ? {
            columns: ['id', 'eta'],
            rules: ['hasOwner', 'hasDescription'],
            description: 'Shipments.',
          }
        : { columns: ['id', 'carrier'], rules: ['hasOwner'], description: 'Parcels.' };
    expect(after).toMatchObject({ ...wanted, version: 0.2 });
    const loser = runs.find((r) => r.code === 1)!;
    expect(loser.out + loser.err).toMatch(/changed since the plan was made|plan is stale/);
  }, 30_000);

  it('a plan whose contract moved after apply read it is refused by the catalog, not applied to the wrong column', async () => {
    const c = await catalog(shipmentsSeed());
    const plan = JSON.parse(
      await readFile(await savedPlan(c, 'a', shipmentsFile(['id', 'eta'], ['hasOwner'])), 'utf8'),
    );
    // The patch is guarded by the version, the last update's time, and by the name of the column
    // it removes by index.
    expect(plan.changes[0].patch).toEqual([
      { op: 'test', path: '/version', value: 0.1 },
      { op: 'test', path: '/updatedAt', value: 1_700_000_000_000 },
      { op: 'test', path: '/schema/1/name', value: 'carrier' },
      { op: 'remove', path: '/schema/1' },
    ]);
    // Someone removes 'id' in between: the same index now names 'eta'.
    const token = c.env.CATALOG_TOKEN!;
    const moved = await fetch(`${c.url}/v1/dataContracts/${CONTRACT_ID}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify(
        plan.changes[0].patch.slice(3).map(() => ({ op: 'remove', path: '/schema/0' })),
      ),
    });
    expect(moved.status).toBe(200);
    const refused = await fetch(`${c.url}/v1/dataContracts/${CONTRACT_ID}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json-patch+json' },
      // Without the version and time guards: the column's own guard refuses it alone.
      body: JSON.stringify(
        plan.changes[0].patch.filter(
          (op: Operation) => !['/version', '/updatedAt'].includes(op.path),
        ),
      ),
    });
    expect(refused.status).toBe(400);
    expect(await shipments(c)).toMatchObject({ columns: ['carrier', 'eta'] });
  }, 30_000);
});

/** The first fault seed at which the sandbox answers successive PATCHes with `wanted` (true: 503). */
function seedFor(wanted: boolean[], rate: number): number {
  for (let s = 1; ; s++) {
    const next = seededRandom(s);
    // Each PATCH draws once for the 503 rule; one that is not 503 draws once more (commit-drop).
    if (wanted.every((fail) => next() < rate === fail && (fail || next() >= 0))) return s;
  }
}

describe('lost answers are read back, and the report says what is true', () => {
  /**
   * A front for the sandbox that forwards every request, and answers the first PATCH, kept by the
   * catalog, with `status` and `headers` instead of the catalog's answer; then applies the shipments
   * file through it.
   */
  async function applyThroughFront(status: number, headers: Record<string, string>) {
    const { sandbox, token } = await openSandbox({ seed: shipmentsSeed() });
    cleanups.push(() => sandbox.close());
    let first = true;
    let patches = 0;
    const front = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const sent: Record<string, string> = {};
        for (const name of ['authorization', 'content-type'])
          if (typeof request.headers[name] === 'string') sent[name] = request.headers[name];
        if (request.method === 'PATCH') patches += 1;
        void fetch(`${sandbox.root}${request.url ?? '/'}`, {
          method: request.method ?? 'GET',
          headers: sent,
          ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
        }).then(async (forwarded) => {
          const body = Buffer.from(await forwarded.arrayBuffer());
          if (request.method === 'PATCH' && first) {
            first = false;
            response.writeHead(status, { 'content-type': 'application/json', ...headers });
            response.end(JSON.stringify({ code: status, message: `answered ${status}` }));
            return;
          }
          response.writeHead(forwarded.status, {
            'content-type': forwarded.headers.get('content-type') ?? 'application/json',
          });
          response.end(body);
        });
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => front.close(() => resolve(undefined))));
    const port = (front.address() as { port: number }).port;
    const dir = await tempDir({
      'contracts/shipments.yaml': shipmentsFile(['id', 'carrier', 'eta'], ['hasOwner'], 'Changed.'),
    });
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: `http://127.0.0.1:${port}`, CATALOG_TOKEN: await token() };
    const run = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
    return { run, sandbox, patches: () => patches };
  }

  it('a PATCH the catalog kept but answered 429: sent again after Retry-After, refused by its guards, reported as a conflict holding the change, never "nothing was applied"', async () => {
    const { run, sandbox } = await applyThroughFront(429, { 'retry-after': '0' });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toContain('already holds this change');
    expect(run.out).not.toContain('nothing was applied');
    expect(sandbox.store.contracts.get(CONTRACT_ID)).toMatchObject({
      description: 'Changed.',
      version: 0.2,
    });
  });

  it('a PATCH the catalog kept but answered with a redirect: not sent again to where it points, read back, applied', async () => {
    const { run, sandbox, patches } = await applyThroughFront(307, {
      location: `/v1/dataContracts/${CONTRACT_ID}`,
    });
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.out).toContain('reading the contract back showed the change in place');
    expect(patches()).toBe(1);
    expect(sandbox.store.contracts.get(CONTRACT_ID)).toMatchObject({
      description: 'Changed.',
      version: 0.2,
    });
  });

  it('the catalog gone mid-apply: the writes never sent say "nothing was applied", not "answer lost"', async () => {
    const c = await catalog(threeSeed(), ['--faults', 'latency=300'], threeFiles(false));
    const planned = await cliProcess(['plan', '--out', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(planned.code, planned.err).toBe(0);
    let stopped = false;
    const run = await cliProcess(['apply', 'plan.json'], {
      cwd: c.dir,
      env: c.env,
      onStdout: (soFar) => {
        if (!stopped && soFar.includes('✓ db.s.a.dataContract_a')) {
          stopped = true;
          void c.sandbox.stop();
        }
      },
    });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.out).toMatch(
      /db\.s\.c\.dataContract_c.*no connection was made, so the catalog never received it: nothing was applied/,
    );
    expect(run.out).not.toMatch(/db\.s\.c\.dataContract_c.*may or may not be in place/);
  }, 30_000);

  it.each([
    ['cut short', (text: string) => Buffer.from(text.slice(0, 40))],
    ["a proxy's HTML page", () => Buffer.from('<html><body>502 Bad Gateway</body></html>')],
  ])(
    'a PATCH that landed, answered 2xx with a body %s: read back and reported applied',
    async (_what, body) => {
      const { sandbox, token } = await openSandbox({ seed: shipmentsSeed() });
      cleanups.push(() => sandbox.close());
      const front = await forwarder(
        sandbox.root,
        () => undefined,
        (method, _url, answer) => (method === 'GET' ? answer : body(JSON.stringify(answer))),
      );
      cleanups.push(() => front.close());
      const dir = await tempDir({
        'contracts/shipments.yaml': shipmentsFile(
          ['id', 'carrier', 'eta'],
          ['hasOwner'],
          'Changed.',
        ),
      });
      cleanups.push(() => dir.remove());
      const env = { CATALOG_URL: front.url, CATALOG_TOKEN: await token() };
      const run = await cli(['apply', '--auto-approve', '--no-color'], { cwd: dir.dir, env });
      expect(run.code, run.out + run.err).toBe(0);
      expect(run.out).toContain('reading the contract back showed the change in place');
      expect(sandbox.store.contracts.get(CONTRACT_ID)).toMatchObject({ description: 'Changed.' });
      expect(front.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
    },
  );

  it('two 503s and then a stored change whose answer was cut: applied, confirmed by reading it back', async () => {
    const faults = `seed=${seedFor([true, true, false], 0.5)},patch.503=0.5,patch.commit-drop=1`;
    const c = await catalog(shipmentsSeed(), ['--faults', faults], {
      'contracts/shipments.yaml': shipmentsFile(['id', 'carrier', 'eta'], ['hasOwner'], 'Changed.'),
    });
    const run = await cliProcess(['apply', '--auto-approve'], { cwd: c.dir, env: c.env });
    expect(run.out + run.err).toContain('reading the contract back showed the change in place');
    expect(run.code).toBe(0);
    expect((await c.methods()).filter((m) => m === 'PATCH')).toHaveLength(3);
    expect(await shipments(c)).toMatchObject({ description: 'Changed.', version: 0.2 });
  }, 30_000);

  it('a PATCH that never lands is reported as not applied, after reading the contract back', async () => {
    const c = await catalog(shipmentsSeed(), ['--faults', 'patch.503=1'], {
      'contracts/shipments.yaml': shipmentsFile(['id', 'carrier', 'eta'], ['hasOwner'], 'Changed.'),
    });
    const run = await cliProcess(['apply', '--auto-approve'], { cwd: c.dir, env: c.env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'not applied: read back, the contract (version 0.1) does not have the change',
    );
    expect(await shipments(c)).toMatchObject({ description: 'Shipments.', version: 0.1 });
  }, 30_000);
});

describe('a saved plan is not trusted blindly', () => {
  async function threePlan(): Promise<{ c: Catalog; file: string; plan: any }> {
    const c = await catalog(threeSeed(), [], threeFiles(false));
    const planned = await cliProcess(['plan', '--out', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(planned.code, planned.err).toBe(0);
    const file = path.join(c.dir, 'plan.json');
    return { c, file, plan: JSON.parse(await readFile(file, 'utf8')) };
  }

  it("refuses a plan whose change names another contract's id, even with its checksum made again; nothing is sent", async () => {
    const { c, file, plan } = await threePlan();
    plan.changes[0].id = plan.changes[1].id;
    await writeFile(file, JSON.stringify(plan));
    const edited = await cliProcess(['apply', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(edited.code).toBe(1);
    expect(edited.err).toContain('does not match its checksum');
    plan.checksum = planChecksum(plan);
    await writeFile(file, JSON.stringify(plan));
    const resealed = await cliProcess(['apply', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(resealed.code).toBe(1);
    expect(resealed.err).toContain(
      `the plan names contract id ${plan.changes[1].id} for db.s.a.dataContract_a`,
    );
    expect(resealed.err).toContain('Nothing was sent');
    expect(await c.methods()).not.toContain('PATCH');
  }, 30_000);

  it('refuses a plan whose patch was edited', async () => {
    const { c, file, plan } = await threePlan();
    plan.changes[2].patch.push({ op: 'remove', path: '/schema/0' });
    await writeFile(file, JSON.stringify(plan));
    const run = await cliProcess(['apply', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(run.code).toBe(1);
    expect(run.err).toContain('plan.json does not match its checksum');
    expect(await c.methods()).not.toContain('PATCH');
  }, 30_000);

  it('refuses a plan edited to remove a field no file manages, even with its checksum made again: every patch is made again from its files and the catalog', async () => {
    const { c, file, plan } = await threePlan();
    // The files do not manage `semantics`; the edit would remove the catalog's rules.
    plan.changes[2].patch.push({ op: 'remove', path: '/semantics' });
    plan.checksum = planChecksum(plan);
    await writeFile(file, JSON.stringify(plan));
    const run = await cliProcess(['apply', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.err).toContain(
      'the plan does not match what its contract files and the catalog make now for db.s.c.dataContract_c: it was edited, or the files or the catalog changed since it was made. Make a new plan. Nothing was sent.',
    );
    expect(await c.methods()).not.toContain('PATCH');
    const live = await c.get('/v1/dataContracts/name/db.s.c.dataContract_c');
    expect(live.semantics).toEqual([{ name: 'hasOwner' }]);
  }, 30_000);

  it.each([
    ['names a contract twice', (plan: any) => plan.changes.push(plan.changes[0])],
    ['lacks a live hash', (plan: any) => (plan.changes[0].liveHash = null)],
    ['lacks an id', (plan: any) => (plan.changes[1].id = null)],
    ['miscounts its changes', (plan: any) => (plan.summary.update = 7)],
  ])(
    'refuses a plan valid by its schema that %s, even sealed again: one sentence, never an internal error',
    async (_what, edit) => {
      const { c, file, plan } = await threePlan();
      edit(plan);
      plan.checksum = planChecksum(plan);
      await writeFile(file, JSON.stringify(plan));
      const run = await cliProcess(['apply', 'plan.json'], { cwd: c.dir, env: c.env });
      expect(run.code, run.out + run.err).toBe(1);
      expect(run.err).toContain('plan.json is not a plan contracts plan writes: ');
      expect(run.err).not.toMatch(/internal error/i);
      expect(await c.methods()).not.toContain('PATCH');
    },
    30_000,
  );

  it('refuses a plan whose files changed since it was made, and one applied outside its checkout', async () => {
    const { c } = await threePlan();
    const edited = threeFiles(false);
    await writeFile(
      path.join(c.dir, 'contracts', 'a.yaml'),
      edited['contracts/a.yaml']!.replace('description: new', 'description: newer'),
    );
    const run = await cliProcess(['apply', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(run.code, run.out + run.err).toBe(1);
    expect(run.err).toContain(
      'the plan does not match what its contract files and the catalog make now for db.s.a.dataContract_a',
    );
    const elsewhere = await tempDir();
    cleanups.push(() => elsewhere.remove());
    const outside = await cliProcess(['apply', path.join(c.dir, 'plan.json')], {
      cwd: elsewhere.dir,
      env: c.env,
    });
    expect(outside.code).toBe(1);
    expect(outside.err).toContain('apply a saved plan in the checkout it was made in');
    expect(await c.methods()).not.toContain('PATCH');
  }, 30_000);
});

describe('hostile live contracts', () => {
  const hostileSeed = () => {
    const value = shipmentsSeed();
    // As the catalog's JSON would carry them: own keys, never a prototype.
    value.dataContracts[0]!.extension = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": "c", "tier": "gold"}',
    ) as Record<string, unknown>;
    return value;
  };

  it('__proto__ and constructor keys in a live extension: plan says each at its name, apply and re-plan converge, import leaves the field out with why', async () => {
    const { sandbox, token } = await openSandbox({ seed: hostileSeed() });
    cleanups.push(() => sandbox.close());
    const dir = await tempDir({
      'contracts/shipments.yaml': `${shipmentsFile(['id', 'carrier', 'eta'], ['hasOwner'])}extension:\n  tier: silver\n`,
    });
    cleanups.push(() => dir.remove());
    const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await token() };
    const plan = await cli(['plan', '--no-color'], { cwd: dir.dir, env });
    expect(plan.code, plan.out + plan.err).toBe(0);
    expect(plan.out).toContain('- extension.__proto__: {"polluted":"yes"}');
    expect(plan.out).toContain('- extension.constructor: "c"');
    expect(plan.out).toContain('~ extension.tier: "gold" → "silver"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const imported = await cli(['import', '--fqn', FQN, '--out', 'imported'], {
      cwd: dir.dir,
      env,
    });
    expect(imported.code, imported.out + imported.err).toBe(0);
    expect(imported.out + imported.err).toContain(
      'extension (it holds the key extension.__proto__, which a contract file cannot hold)',
    );
    expect(await readFile(path.join(dir.dir, 'imported', `${FQN}.yaml`), 'utf8')).not.toContain(
      'extension',
    );
    const apply = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
    expect(apply.code, apply.out + apply.err).toBe(0);
    expect(apply.out).toContain(
      '~ extension: __proto__: {"polluted":"yes"} → (absent), constructor: "c" → (absent), tier: "gold" → "silver"',
    );
    expect(sandbox.store.contracts.get(CONTRACT_ID)!.extension).toEqual({ tier: 'silver' });
    const again = await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env });
    expect(again.code, again.out).toBe(0);
  });
});

describe('live lists holding two items with one key', () => {
  const lists: Record<string, { live: unknown[]; file: string }> = {
    schema: {
      live: [
        { name: 'id', dataType: 'VARCHAR' },
        { name: 'carrier', dataType: 'VARCHAR' },
        { name: 'id', dataType: 'VARCHAR' },
      ],
      file: 'schema:\n  - {name: id, dataType: VARCHAR, description: The key.}\n  - {name: carrier, dataType: VARCHAR}\n',
    },
    semantics: {
      live: [{ name: 'hasOwner' }, { name: 'hasOwner', description: 'Twice.' }],
      file: 'semantics:\n  - {name: hasOwner}\n  - {name: hasDescription}\n',
    },
    owners: {
      live: [
        { type: 'user', name: 'alice' },
        { type: 'user', name: 'alice' },
      ],
      file: 'owners:\n  - {type: user, name: alice}\n  - {type: user, name: bob}\n',
    },
    qualityExpectations: {
      live: [{ fullyQualifiedName: 'q.one' }, { fullyQualifiedName: 'q.one' }],
      file: 'qualityExpectations:\n  - {fullyQualifiedName: q.one}\n',
    },
  };
  it.each(Object.keys(lists))(
    'live %s with a key twice: plan says the change (no internal error), apply converges',
    async (field) => {
      const value = shipmentsSeed();
      const contract = value.dataContracts[0]! as Record<string, unknown>;
      contract[field] = lists[field]!.live;
      const { sandbox, token } = await openSandbox({ seed: value });
      cleanups.push(() => sandbox.close());
      const head = `name: shipments\nfullyQualifiedName: ${FQN}\nentity: {type: table, fullyQualifiedName: db.s.shipments}\n`;
      const dir = await tempDir({ 'contracts/shipments.yaml': `${head}${lists[field]!.file}` });
      cleanups.push(() => dir.remove());
      const env = { CATALOG_URL: sandbox.url, CATALOG_TOKEN: await token() };
      const plan = await cli(['plan', '--no-color'], { cwd: dir.dir, env });
      expect(plan.code, plan.out + plan.err).toBe(0);
      expect(plan.out + plan.err).not.toMatch(/internal error/i);
      const apply = await cli(['apply', '--auto-approve'], { cwd: dir.dir, env });
      expect(apply.code, apply.out + apply.err).toBe(0);
      const again = await cli(['plan', '--detailed-exitcode'], { cwd: dir.dir, env });
      expect(again.code, again.out).toBe(0);
    },
  );
});

describe('hostile and slow contract files', () => {
  it('a raw U+202E in a file name never reaches --format github output as itself', async () => {
    const dir = await tempDir({ 'contracts/evil\u202egnp.yaml': 'name: x\nbogus: 1\n' });
    cleanups.push(() => dir.remove());
    const run = await cli(['validate', '--format', 'github'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    expect(run.out).toContain('::error file=contracts/evil\\u202egnp.yaml,line=');
    expect(run.out + run.err).not.toContain('\u202e');
  });

  const head = 'name: x\nfullyQualifiedName: a.b\nentity: {type: table, fullyQualifiedName: a.b}\n';

  it('30,000 keys the schema refuses load in linear time, with the first hundred described', async () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `k${i}: v`);
    const dir = await tempDir({ 'wide.yaml': `${head}${lines.join('\n')}\n` });
    cleanups.push(() => dir.remove());
    const run = await cliProcess(['validate', 'wide.yaml'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    expect(run.out).toContain("wide.yaml:4:1 unknown key 'k0' at the top level");
    expect(run.out).toContain(
      'wide.yaml:104:1 29900 more problems like the ones above are not listed',
    );
    expect(run.out).toContain('29900 more problems like the ones above are not listed');
  }, 15_000);

  it('a file of 1 MiB of duplicate keys lists a hundred problems and counts the rest, no crash', async () => {
    const dir = await tempDir({ 'dup.yaml': `${head}extension:\n${'  k: 1\n'.repeat(149_000)}` });
    cleanups.push(() => dir.remove());
    const run = await cliProcess(['validate', 'dup.yaml'], { cwd: dir.dir });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'dup.yaml:6:3 duplicate key: this key is first on line 5, and each key may appear once in a mapping; keep one of them',
    );
    expect(run.out).toContain(
      'dup.yaml:106:3 148899 more problems like the ones above are not listed',
    );
    expect(run.err).not.toContain('Internal error');
  }, 15_000);

  it('an escaped __proto__ key is refused at its position by validate and by plan, nothing written', async () => {
    const file = `${head}extension:\n  "\\u005f_proto__": {polluted: true}\n`;
    const c = await catalog(shipmentsSeed(), [], { 'contracts/proto.yaml': file });
    const validate = await cliProcess(['validate'], { cwd: c.dir });
    expect(validate.code).toBe(1);
    expect(validate.out).toContain(
      'contracts/proto.yaml:5:3 the key __proto__ is not allowed in a contract file',
    );
    const plan = await cliProcess(['plan'], { cwd: c.dir, env: c.env });
    expect(plan.code).toBe(1);
    expect(plan.out).toContain('contracts/proto.yaml:5:3 the key __proto__ is not allowed');
    expect(plan.err).not.toContain('Internal error');
    expect(writesAmong((await c.methods()).map((method) => ({ method })))).toEqual([]);
  }, 30_000);

  it('nesting past the limit is one sentence in validate and in plan, never a stack overflow', async () => {
    const file = `${head}extension: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const c = await catalog(shipmentsSeed(), [], { 'contracts/deep.yaml': file });
    for (const args of [['validate'], ['plan']]) {
      const run = await cliProcess(args, { cwd: c.dir, env: c.env });
      expect(run.code).toBe(1);
      expect(run.out).toMatch(/contracts\/deep\.yaml:4:\d+ nesting deeper than 64 levels/);
      expect(run.out + run.err).not.toMatch(/call stack|Internal error/);
    }
  }, 30_000);
});

describe('the sandbox acknowledges only what it saved', () => {
  it('its admin routes, which show and change the whole state, need a token like the catalog', async () => {
    const { sandbox, token } = await openSandbox({ seed: shipmentsSeed() });
    cleanups.push(() => sandbox.close());
    for (const [method, route] of [
      ['GET', '/sandbox/state'],
      ['GET', '/sandbox/requests'],
      ['DELETE', '/sandbox/requests'],
      ['DELETE', `/sandbox/dataContracts/${CONTRACT_ID}`],
    ] as const) {
      const refused = await fetch(`${sandbox.root}${route}`, { method });
      expect(refused.status, `${method} ${route}`).toBe(401);
    }
    expect(sandbox.store.contracts.has(CONTRACT_ID)).toBe(true);
    const state = await fetch(`${sandbox.root}/sandbox/state`, {
      headers: { authorization: `Bearer ${await token()}` },
    });
    expect(state.status).toBe(200);
  });

  it('a disk that takes part of the state and then no more: the PATCH answers 500, the data file is the whole old state, and a restart serves it', async () => {
    const dir = await tempDir();
    cleanups.push(() => dir.remove());
    const data = path.join(dir.dir, 'state.json');
    const opened = await openSandbox({ seed: shipmentsSeed(), dataFile: data });
    let open = true;
    cleanups.push(async () => (open ? opened.sandbox.close() : undefined));
    const before = await readFile(data, 'utf8');
    // The disk fills after 100 bytes: writes take part of what they are given, then nothing.
    let room = 100;
    opened.sandbox.store.writeBytes = (fd, bytes, offset, length) => {
      const taken = Math.min(length, room);
      room -= taken;
      return taken === 0 ? 0 : writeSync(fd, bytes, offset, taken);
    };
    const answer = await opened.client.patch(`/v1/dataContracts/${CONTRACT_ID}`, [
      { op: 'replace', path: '/description', value: 'Changed.' },
    ]);
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).toContain('the change was not saved');
    expect(opened.sandbox.store.contracts.get(CONTRACT_ID)).toMatchObject({
      description: 'Shipments.',
      version: 0.1,
    });
    expect(await readFile(data, 'utf8')).toBe(before);
    expect((await readdir(dir.dir)).sort()).toEqual(['state.json']);
    open = false;
    await opened.sandbox.close();
    const again = await openSandbox({ seed: shipmentsSeed(), dataFile: data });
    cleanups.push(() => again.sandbox.close());
    expect(again.sandbox.store.contracts.get(CONTRACT_ID)).toMatchObject({ version: 0.1 });
  });

  it('a PATCH whose --data write fails answers 500, changes nothing, and a restart shows the same state', async () => {
    const c = await catalog(shipmentsSeed(), [], {
      'contracts/shipments.yaml': shipmentsFile(['id', 'carrier', 'eta'], ['hasOwner'], 'Changed.'),
    });
    await c.sandbox.stop();
    const data = path.join(c.dir, 'state.json');
    const args = ['--seed', path.join(c.dir, 'seed.json'), '--secret', SECRET, '--data', data];
    const first = spawnSandboxProcess(args);
    cleanups.push(() => first.stop());
    const env = { ...c.env, CATALOG_URL: await first.url };
    // The sandbox writes a temporary file beside the data file first: a folder there fails it.
    const blocker = `${data}.${first.child.pid}.tmp`;
    await mkdir(blocker);
    const run = await cliProcess(['apply', '--auto-approve'], { cwd: c.dir, env });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'not applied: read back, the contract (version 0.1) does not have the change',
    );
    const live = async (url: string) =>
      (await (
        await fetch(`${url}/v1/dataContracts/name/${FQN}`, {
          headers: { authorization: `Bearer ${c.env.CATALOG_TOKEN!}` },
        })
      ).json()) as { description: string; version: number };
    expect(await live(env.CATALOG_URL)).toMatchObject({ description: 'Shipments.', version: 0.1 });
    await first.stop();
    await rm(blocker, { recursive: true });
    const second = spawnSandboxProcess(args);
    cleanups.push(() => second.stop());
    expect(await live(await second.url)).toMatchObject({ description: 'Shipments.', version: 0.1 });
  }, 30_000);
});

describe('plan --out writes only regular files', () => {
  it('refuses a FIFO and a link to a device, writes through a link to a regular file', async () => {
    const c = await catalog(threeSeed(), [], threeFiles(false));
    execFileSync('mkfifo', [path.join(c.dir, 'fifo')]);
    await symlink('/dev/null', path.join(c.dir, 'null-link'));
    await writeFile(path.join(c.dir, 'real.json'), '');
    await symlink(path.join(c.dir, 'real.json'), path.join(c.dir, 'plan-link'));
    const fifo = await cliProcess(['plan', '--out', 'fifo'], { cwd: c.dir, env: c.env });
    expect(fifo.code).toBe(1);
    expect(fifo.err).toContain('cannot save the plan to');
    expect(fifo.err).toContain('is a FIFO, not a regular file');
    expect(fifo.out).not.toContain('Saved');
    expect((await stat(path.join(c.dir, 'fifo'))).isFIFO()).toBe(true);
    const device = await cliProcess(['plan', '--out', 'null-link'], { cwd: c.dir, env: c.env });
    expect(device.code).toBe(1);
    expect(device.err).toContain('links to /dev/null, which is a device');
    // Refused before the catalog is asked anything.
    expect(await c.methods()).toEqual([]);
    const linked = await cliProcess(['plan', '--out', 'plan-link'], { cwd: c.dir, env: c.env });
    expect(linked.code).toBe(0);
    expect(JSON.parse(await readFile(path.join(c.dir, 'real.json'), 'utf8')).formatVersion).toBe(2);
    const missing = await cliProcess(['plan', '--out', 'nowhere/plan.json'], {
      cwd: c.dir,
      env: c.env,
    });
    expect(missing.err).toContain(`the folder ${path.join(c.dir, 'nowhere')} does not exist`);
  }, 30_000);
});

describe('a guard the catalog refuses during apply', () => {
  async function racedPlan() {
    const opened = await openSandbox({ seed: shipmentsSeed() });
    cleanups.push(() => opened.sandbox.close());
    const client = new CatalogClient({ baseUrl: opened.sandbox.url, token: await opened.token() });
    cleanups.push(() => client.close());
    const parsed = parseContract(
      shipmentsFile(['id', 'eta'], ['hasOwner', 'hasDescription']),
      'contracts/shipments.yaml',
    );
    if (!parsed.ok) throw new Error('bad test contract');
    const { changes, liveForUpdates, desired } = await readAndPlanEach([parsed.value], client, {
      checkAssets: false,
      keepLive: true,
    });
    const plan = assemblePlan(changes, {
      catalogUrl: opened.sandbox.url,
      catalogProfile: 'spec',
      gitCommit: null,
      createdAt: '',
    });
    // Another writer removes the first column after apply read the contract, before its PATCH.
    let raced = false;
    const racing: CatalogClient = Object.assign(Object.create(client) as CatalogClient, {
      patchContract: async (id: string, ops: Operation[]) => {
        if (!raced) {
          raced = true;
          await client.patchContract(id, [{ op: 'remove', path: '/schema/0' }]);
        }
        return client.patchContract(id, ops);
      },
    });
    const live = () => opened.sandbox.store.contractByFqn(FQN)!;
    return { plan, liveForUpdates, racing, live, desired, client };
  }

  it('a saved plan: the contract fails as changed since the plan, nothing else is sent for it, apply stops', async () => {
    const { plan, liveForUpdates, racing, live } = await racedPlan();
    const report = await applyPlan(plan, racing, { liveContracts: liveForUpdates });
    expect(report.results[0]).toMatchObject({
      status: 'failed',
      httpStatus: 400,
      errorType: 'CONFLICT',
    });
    expect((report.results[0] as { message: string }).message).toContain(
      'the contract changed since the plan was made (version 0.1 then, 0.2 now); nothing was applied to it',
    );
    expect(report.stoppedBy).not.toBeNull();
    expect((live().schema as { name: string }[]).map((c) => c.name)).toEqual(['carrier', 'eta']);
    expect(live().semantics).toEqual([{ name: 'hasOwner' }]);
  });

  it('plan and apply in one run: planned again from the file once, against the contract as it is now', async () => {
    const { plan, liveForUpdates, racing, live, desired } = await racedPlan();
    const report = await applyPlan(plan, racing, { liveContracts: liveForUpdates, desired });
    expect(report.results[0]).toMatchObject({
      status: 'applied',
      replannedAt: 0.2,
      newVersion: 0.3,
    });
    expect((live().schema as { name: string }[]).map((c) => c.name)).toEqual(['id', 'eta']);
    expect(live().semantics).toEqual([{ name: 'hasOwner' }, { name: 'hasDescription' }]);
  });

  it("OpenMetadata answering 500 to a test that fails (JSON-P's JsonException, on every release): a refusal, reported as such, never as a lost answer", async () => {
    const { plan, liveForUpdates, client, live } = await racedPlan();
    const older: CatalogClient = Object.assign(Object.create(client) as CatalogClient, {
      patchContract: async (id: string) => {
        // Another writer removes the first column; the server then refuses the stale patch with
        // a 500, as OpenMetadata servers before the 400 did.
        await client.patchContract(id, [{ op: 'remove', path: '/schema/0' }]);
        throw new CatalogError(
          500,
          'UNHANDLED_SERVER_EXCEPTION',
          "The JSON Patch operation 'test' failed for path '/version'",
          'PATCH /v1/dataContracts/x',
        );
      },
    });
    const report = await applyPlan(plan, older, { liveContracts: liveForUpdates });
    expect(report.results[0]).toMatchObject({
      status: 'failed',
      httpStatus: 500,
      errorType: 'CONFLICT',
    });
    const message = (report.results[0] as { message: string }).message;
    expect(message).toBe(
      'the contract changed since the plan was made (version 0.1 then, 0.2 now); nothing was applied to it. Make a new plan and apply that.',
    );
    expect((live().schema as { name: string }[]).map((c) => c.name)).toEqual(['carrier', 'eta']);
  });

  it('a 412 while the contract is still as planned: sent once more, with the ETag read back', async () => {
    const { plan, liveForUpdates, client, live } = await racedPlan();
    let refusals = 0;
    const etagged: CatalogClient = Object.assign(Object.create(client) as CatalogClient, {
      patchContract: async (id: string, ops: Operation[]) => {
        if (refusals++ === 0)
          throw new CatalogError(412, 'PRECONDITION_FAILED', 'ETag moved', 'PATCH /v1/x');
        return client.patchContract(id, ops);
      },
    });
    const report = await applyPlan(plan, etagged, { liveContracts: liveForUpdates });
    expect(report.results[0]).toMatchObject({ status: 'applied', newVersion: 0.2 });
    expect(refusals).toBe(2);
    expect((live().schema as { name: string }[]).map((c) => c.name)).toEqual(['id', 'eta']);
  });

  it('a lost answer whose contract cannot be read back is an outcome unknown, never a failure or a success', async () => {
    const { plan, liveForUpdates, client } = await racedPlan();
    const blind: CatalogClient = Object.assign(Object.create(client) as CatalogClient, {
      patchContract: async (id: string, ops: Operation[]) => {
        await client.patchContract(id, ops);
        throw new NetworkError('PATCH /v1/dataContracts/x failed: socket hang up');
      },
      getContractById: () => Promise.reject(new NetworkError('GET failed: connection refused')),
    });
    const report = await applyPlan(plan, blind, { liveContracts: liveForUpdates });
    expect(report.results[0]).toMatchObject({ status: 'failed', errorType: 'OUTCOME_UNKNOWN' });
    expect((report.results[0] as { message: string }).message).toContain(
      'the change may or may not be in place; run plan to see',
    );
  });
});

describe('Ctrl-C during apply', () => {
  /**
   * Applies a saved plan of three contracts against a catalog that takes 500 ms a request, and
   * presses Ctrl-C once the first contract is reported, while the second one's PATCH is on its
   * way; with `twice`, again 100 ms later, while that PATCH is still in flight.
   */
  async function interruptedApply(twice: boolean, signal: NodeJS.Signals = 'SIGINT') {
    const c = await catalog(threeSeed(), ['--faults', 'latency=500'], threeFiles(false));
    const planned = await cliProcess(['plan', '--out', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(planned.code, planned.err).toBe(0);
    let interrupted = false;
    const run = await cliProcess(['apply', 'plan.json'], {
      cwd: c.dir,
      env: c.env,
      onStdout: (soFar, child) => {
        if (!interrupted && soFar.includes('✓ db.s.a.dataContract_a')) {
          interrupted = true;
          child.kill(signal);
          if (twice) setTimeout(() => child.kill(signal), 100);
        }
      },
    });
    return { c, ...run };
  }

  it('sends nothing new, lets the change in flight finish, reports what happened with "interrupted", exits 130', async () => {
    const { c, code, out, err } = await interruptedApply(false);
    expect(code, out + err).toBe(130);
    expect(err).toContain('Interrupted: finishing what is in flight and sending nothing further');
    expect(out).toContain(
      'Apply interrupted: the changes in flight finished, and nothing further was sent.',
    );
    expect(out).toMatch(/not attempted \(1\):\n {4}db\.s\.c\.dataContract_c/);
    const patched = (await c.methods()).filter((m) => m === 'PATCH');
    expect(patched).toHaveLength(2);
    const contractC = await c.get('/v1/dataContracts/name/db.s.c.dataContract_c');
    expect(contractC.version).toBe(0.1);
  }, 30_000);

  it('SIGTERM (a CI timeout, docker stop) is an interrupt too: the change in flight finishes, the report is written, exit 143', async () => {
    const { c, code, out, err } = await interruptedApply(false, 'SIGTERM');
    expect(code, out + err).toBe(143);
    expect(err).toContain(
      'Terminated (SIGTERM): finishing what is in flight and sending nothing further',
    );
    expect(out).toContain(
      'Apply interrupted: the changes in flight finished, and nothing further was sent.',
    );
    expect((await c.methods()).filter((m) => m === 'PATCH')).toHaveLength(2);
  }, 30_000);

  it('a reader that goes away (`contracts apply | head -n 1`): the apply goes on to the end, and every result and the summary follow on stderr', async () => {
    const c = await catalog(threeSeed(), ['--faults', 'latency=100'], threeFiles(false));
    const planned = await cliProcess(['plan', '--out', 'plan.json'], { cwd: c.dir, env: c.env });
    expect(planned.code, planned.err).toBe(0);
    let closed = false;
    const run = await cliProcess(['apply', 'plan.json'], {
      cwd: c.dir,
      env: c.env,
      onStdout: (soFar, child) => {
        if (!closed && soFar.includes('\n')) {
          closed = true;
          child.stdout!.destroy();
        }
      },
    });
    expect(run.code, run.out + run.err).toBe(0);
    expect(run.err).toContain('standard output was closed before the command finished');
    for (const name of ['a', 'b', 'c'])
      expect(run.err).toContain(`✓ db.s.${name}.dataContract_${name}  0.1 → 0.2`);
    expect(run.err).toContain('Apply complete: 3 changed, 0 unchanged.');
    expect((await c.methods()).filter((m) => m === 'PATCH')).toHaveLength(3);
  }, 30_000);

  it('a second Ctrl-C exits at once, saying the change in flight may or may not be in place', async () => {
    const { code, out, err } = await interruptedApply(true);
    expect(code, out + err).toBe(130);
    expect(err).toContain(
      'Interrupted again: exiting now; the change in flight may or may not be in place.',
    );
    // It did not wait for the PATCH in flight to report it.
    expect(out).not.toContain('db.s.b.dataContract_b');
    expect(out).not.toContain('Apply interrupted');
  }, 30_000);
});
