// `--prune` attacked, over HTTP against the sandbox through the CLI: a deletion needs proof from
// this repository's own history (the marker's commit in HEAD's history, its path holding a file
// that named the contract at that commit, the file gone since), checked on the listed item, on the
// re-read and before the DELETE; a saved plan's deletions and file names are made again. Each test
// fails on the code before the proof: an edited saved plan deleting another repository's contract,
// a saved deletion of a contract whose file moved, a takeover between the list and the re-read, an
// older checkout, a marker written by hand, a contract listed twice, a checkout reached through a
// link, a saved plan whose files were swapped.
import { rm, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { connect } from '../src/operations/connection.js';
import { CONTRACT_FIELDS } from '../src/read/read-plan-inputs.js';
import { hashContract, planChecksum } from '../src/plan/seal.js';
import { summarize } from '../src/plan/types.js';
import { runCli } from '../src/cli/program.js';
import { captureIo } from './helpers/capture-io.js';
import { cli } from './helpers/cli.js';
import { forwarder } from './helpers/forwarder.js';
import {
  OTHER,
  REPOSITORY,
  commitAll,
  fqnOf,
  git,
  pruneRepository,
} from './helpers/prune-repository.js';
import { tempDir } from './helpers/temp-dir.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function applied(profile: 'spec' | 'openmetadata' = 'spec') {
  const opened = await pruneRepository(cleanups, profile);
  const first = await opened.run('apply', '--auto-approve');
  expect(first.code, first.err).toBe(0);
  const deletes = () =>
    opened.sandbox.requests().filter((request) => request.method === 'DELETE').length;
  return { ...opened, deletes };
}

/** A contract as apply reads it before a deletion: its id, version and hash. */
async function asRead(env: Record<string, string>, fqn: string) {
  const { client } = connect({}, env);
  try {
    const contract = await client.getContractByName(fqn, CONTRACT_FIELDS);
    return { id: contract.id, version: contract.version, hash: hashContract(contract) };
  } finally {
    await client.close();
  }
}

const contractFile = (name: string) =>
  stringify({
    name,
    fullyQualifiedName: fqnOf(name),
    entity: { type: 'table', fullyQualifiedName: `db.s.${name}` },
    description: `Table ${name}, contract ${'abc'.indexOf(name) + 1}.`,
  });

describe('a saved plan is made again whole, deletions and file names included', () => {
  it('a plan edited to delete a contract managed from another repository (checksum made again) is refused; nothing is deleted', async () => {
    const { cwd, run, env, deletes, live } = await applied();
    expect((await run('plan', '--prune', '--out', 'plan.json')).code).toBe(0);
    const file = path.join(cwd, 'plan.json');
    const plan = JSON.parse(await readFile(file, 'utf8'));
    const other = await asRead(env, fqnOf('d'));
    plan.changes = [
      {
        file: 'contracts/d.yaml',
        fullyQualifiedName: fqnOf('d'),
        id: other.id,
        action: 'delete',
        liveVersion: other.version,
        liveHash: other.hash,
        patch: [],
        breaking: ['the contract is deleted'],
        diff: [],
        warnings: [],
        notes: [],
        error: null,
        // A plan of format 2 carries its findings: forged too, so that the plan reads.
        findings: [],
      },
    ];
    plan.summary = summarize(plan.changes);
    plan.checksum = planChecksum(plan);
    await writeFile(file, JSON.stringify(plan));
    const edited = await run('apply', 'plan.json', '--prune', '--auto-approve');
    expect(edited.code).toBe(1);
    expect(edited.err).toContain(`the plan deletes ${fqnOf('d')} (contracts/d.yaml)`);
    expect(edited.err).toContain(`it is managed from ${OTHER}`);
    expect(edited.err).toContain('Nothing was sent');
    expect(deletes()).toBe(0);
    expect((await live('d')).deleted).not.toBe(true);
  });

  it('a saved --prune plan whose file was moved since (restored elsewhere) deletes nothing', async () => {
    const { cwd, run, deletes, live } = await applied();
    git(cwd, 'rm', '-q', 'contracts/b.yaml');
    commitAll(cwd, 'b goes');
    const saved = await run('plan', '--prune', '--out', 'plan.json');
    expect(saved.out).toContain('1 to delete');
    // Brought back under another folder: a fresh plan keeps the contract, so must the saved one.
    await mkdir(path.join(cwd, 'kept'));
    await writeFile(path.join(cwd, 'kept', 'b.yaml'), contractFile('b'));
    commitAll(cwd, 'b moves');
    const moved = await run('apply', 'plan.json', '--prune', '--auto-approve');
    expect(moved.code).toBe(1);
    expect(moved.err).toContain(`the plan deletes ${fqnOf('b')} (contracts/b.yaml)`);
    expect(moved.err).toContain('kept/b.yaml names its contract');
    expect(deletes()).toBe(0);
    expect((await live('b')).deleted).not.toBe(true);
    // A fresh plan of the folder it left keeps it too, and says why.
    const fresh = await run('plan', '--prune');
    expect(fresh.out).not.toContain(`- ${fqnOf('b')}`);
    expect(fresh.out).toContain(`${fqnOf('b')} is kept: kept/b.yaml names it`);
  });

  it('a saved plan whose changes name each other’s files (checksum made again) is refused', async () => {
    const { cwd, run } = await applied();
    for (const name of ['a', 'b'])
      await writeFile(
        path.join(cwd, 'contracts', `${name}.yaml`),
        contractFile(name).replace('contract', 'contract, described again'),
      );
    expect((await run('plan', '--out', 'plan.json')).code).toBe(0);
    const file = path.join(cwd, 'plan.json');
    const plan = JSON.parse(await readFile(file, 'utf8'));
    const [first, second] = plan.changes;
    [first.file, second.file] = [second.file, first.file];
    plan.checksum = planChecksum(plan);
    await writeFile(file, JSON.stringify(plan));
    const swapped = await run('apply', 'plan.json', '--auto-approve');
    expect(swapped.code).toBe(1);
    expect(swapped.err).toContain('the plan does not match what its contract files');
    expect(swapped.err).toContain('Nothing was sent');
  });
});

describe('a deletion needs proof from this repository’s history', () => {
  it('an older checkout does not delete what a newer commit created', async () => {
    const { cwd, run, deletes, live } = await applied();
    git(cwd, 'rm', '-q', 'contracts/c.yaml');
    commitAll(cwd, 'c goes');
    const gone = git(cwd, 'rev-parse', 'HEAD').trim();
    // Brought back and applied: its marker now names the commit that brought it back.
    await writeFile(path.join(cwd, 'contracts', 'c.yaml'), contractFile('c'));
    const back = commitAll(cwd, 'c is back');
    expect((await run('apply', '--auto-approve')).code).toBe(0);
    expect((await live('c')).extension?.managedBy).toBe(
      `${REPOSITORY}/blob/${back}/contracts/c.yaml`,
    );
    // An old job's checkout, from before the file came back: its file is gone there.
    git(cwd, 'checkout', '-q', gone);
    const old = await run('plan', '--prune');
    expect(old.out).not.toContain(`- ${fqnOf('c')}`);
    expect(old.out).toContain(
      `${fqnOf('c')} is kept: its marker's commit ${back.slice(0, 12)} is not in the history of this checkout's HEAD`,
    );
    expect((await run('apply', '--prune', '--auto-approve')).code).toBe(0);
    expect(deletes()).toBe(0);
    // Unchanged contracts keep their marker: a new commit re-marks nothing.
    git(cwd, 'checkout', '-q', 'main');
    commitAll(cwd, 'another commit');
    expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
  });

  it('a marker written by hand naming this repository proves nothing: the file at its commit named another contract, or the commit is none of ours', async () => {
    const { cwd, run, client, live, deletes, head } = await applied();
    await rm(path.join(cwd, 'contracts', 'b.yaml'));
    const d = await live('d');
    const forged = await client.patch(`/v1/dataContracts/${d.id}`, [
      {
        op: 'replace',
        path: '/extension',
        value: { managedBy: `${REPOSITORY}/blob/${head}/contracts/b.yaml` },
      },
    ]);
    expect(forged.status).toBe(200);
    const plan = await run('plan', '--prune');
    expect(plan.out).toContain(`- ${fqnOf('b')}`);
    expect(plan.out).not.toContain(`- ${fqnOf('d')}`);
    expect(plan.out).toContain(
      `${fqnOf('d')} is kept: contracts/b.yaml at commit ${head.slice(0, 12)} names another contract (${fqnOf('b')})`,
    );
    const invented = 'f'.repeat(40);
    await client.patch(`/v1/dataContracts/${d.id}`, [
      {
        op: 'replace',
        path: '/extension',
        value: { managedBy: `${REPOSITORY}/blob/${invented}/contracts/b.yaml` },
      },
    ]);
    expect((await run('apply', '--prune', '--auto-approve')).code).toBe(0);
    expect((await live('b', 'deleted')).deleted).toBe(true);
    expect((await live('d')).deleted).not.toBe(true);
    expect(deletes()).toBe(1);
  });
});

describe('the catalog answers that prune reads', () => {
  it('a contract another repository took over between the list and the re-read is kept', async () => {
    const { cwd, env, deletes } = await applied();
    await rm(path.join(cwd, 'contracts', 'b.yaml'));
    const takenOver = `${OTHER}/blob/${'a'.repeat(40)}/contracts/b.yaml`;
    const proxy = await forwarder(
      env.CATALOG_URL,
      () => undefined,
      (method, url, body) =>
        method === 'GET' && url.startsWith(`/v1/dataContracts/name/${fqnOf('b')}`)
          ? { ...(body as object), extension: { managedBy: takenOver } }
          : body,
    );
    cleanups.push(() => proxy.close());
    const plan = await cli(['plan', '--prune'], {
      cwd,
      env: { ...env, CATALOG_URL: proxy.url },
    });
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).not.toContain(`- ${fqnOf('b')}`);
    expect(plan.out).toContain(`${fqnOf('b')} is kept: it is managed from ${OTHER}`);
    expect(deletes()).toBe(0);
  });

  it('a contract the list names twice is one deletion', async () => {
    const { cwd, env } = await applied();
    await rm(path.join(cwd, 'contracts', 'b.yaml'));
    const proxy = await forwarder(
      env.CATALOG_URL,
      () => undefined,
      (method, url, body) => {
        if (method !== 'GET' || !url.startsWith('/v1/dataContracts?')) return body;
        const page = body as { data: unknown[] };
        return { ...page, data: [...page.data, ...page.data] };
      },
    );
    cleanups.push(() => proxy.close());
    const plan = await cli(['plan', '--prune', '--json'], {
      cwd,
      env: { ...env, CATALOG_URL: proxy.url },
    });
    expect(plan.code, plan.err).toBe(0);
    expect(JSON.parse(plan.out).summary).toMatchObject({ delete: 1 });
  });
});

describe('a checkout reached through a link', () => {
  it('marks the same paths as the checkout itself: nothing to re-mark when the two alternate', async () => {
    const { cwd, env, live, head } = await applied();
    const links = await tempDir();
    cleanups.push(() => links.remove());
    const linked = path.join(links.dir, 'link');
    await symlink(cwd, linked);
    await writeFile(
      path.join(cwd, 'contracts', 'a.yaml'),
      contractFile('a').replace('contract', 'changed through the link'),
    );
    const through = await cli(['apply', '--auto-approve'], { cwd: linked, env });
    expect(through.code, through.err).toBe(0);
    expect((await live('a')).extension?.managedBy).toBe(
      `${REPOSITORY}/blob/${head}/contracts/a.yaml`,
    );
    expect((await cli(['plan', '--detailed-exitcode'], { cwd, env })).code).toBe(0);
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: linked, env })).code).toBe(0);
  });
});

describe('just before the DELETE', () => {
  it('a file brought back while apply asks keeps its contract: the deletion is proven again on the contract read before it is sent', async () => {
    const { cwd, env, live, deletes } = await applied();
    await rm(path.join(cwd, 'contracts', 'b.yaml'));
    const io = Object.assign(captureIo(cwd, env), {
      stdinIsTTY: true,
      prompt: async () => {
        // Between the plan and the DELETE: the contract is as planned, its file is here again.
        await writeFile(path.join(cwd, 'contracts', 'b.yaml'), contractFile('b'));
        return 'yes';
      },
    });
    expect(await runCli(['apply', '--prune'], io)).toBe(1);
    expect(io.out()).toContain(
      `NOT_PROVEN: not deleted: its file contracts/b.yaml is in the checkout`,
    );
    expect(deletes()).toBe(0);
    expect((await live('b')).deleted).not.toBe(true);
  });
});
