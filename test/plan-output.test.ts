// What plan reports must not change when its insides do: its human, markdown and JSON outputs over
// a workspace generated from a fixed seed (spec profile) and the OpenMetadata demo (openmetadata
// profile) are compared, byte for byte, with the outputs kept in test/__snapshots__/plan-output/
// (only the sandbox's port, the time and the checksum that covers them are masked), over a
// generated workspace of the openmetadata profile, over the spec profile's generated contracts
// written as ODCS documents, and over workspaces of both profiles where every other file holds
// what the catalog holds (contracts planned from the catalog's answer, read/known-from-live.ts;
// their snapshots were made by the code before it). A change of
// what plan says is made on purpose: run `npx vitest run test/plan-output.test.ts -u` and review
// the snapshots' diff.
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cli } from './helpers/cli.js';
import { arbitraryContract, reordered, withoutNulls } from './helpers/arbitraries.js';
import { catalogFromPairs } from './helpers/generated-catalog.js';
import { KEPT_ONLY_IN_GIT } from './helpers/kept-only-in-git.js';
import { openMetadataWorkspace, pairArb, type Pair } from './helpers/openmetadata-workspace.js';
import { sandboxWithFolder, seed } from './helpers/sandbox.js';
import { odcsFileText } from '../src/contract/to-odcs.js';
import { contractForProfile } from '../src/contract/odcs-file.js';
import { parseContract } from '../src/contract/parse.js';
import type { DesiredContract } from '../src/model/contract.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const root = path.resolve(import.meta.dirname, '..');
const SNAPSHOTS = path.join(import.meta.dirname, '__snapshots__', 'plan-output');

/** `text` with what differs from run to run masked: the catalog's address, the time, the checksum. */
function masked(text: string, url: string): string {
  return text
    .replaceAll(url, 'http://catalog')
    .replace(/"createdAt": "[^"]+"/g, '"createdAt": "(time)"')
    .replace(/"checksum": "sha256:[0-9a-f]+"/g, '"checksum": "(checksum)"');
}

/** `contracts` written as contracts/c00.yaml, c01.yaml, … in `cwd`. */
async function writeContracts(cwd: string, contracts: readonly unknown[]): Promise<void> {
  await mkdir(path.join(cwd, 'contracts'));
  for (const [i, contract] of contracts.entries())
    await writeFile(
      path.join(cwd, 'contracts', `c${String(i).padStart(2, '0')}.yaml`),
      stringify(contract),
    );
}

/**
 * `contracts` written as ODCS documents contracts/c00.odcs.yaml, c01.odcs.yaml, … in `cwd`, each
 * followed by `more` (YAML of more top-level fields).
 */
async function writeOdcsDocuments(
  cwd: string,
  contracts: readonly DesiredContract[],
  more = '',
): Promise<void> {
  await mkdir(path.join(cwd, 'contracts'));
  for (const [i, contract] of contracts.entries())
    await writeFile(
      path.join(cwd, 'contracts', `c${String(i).padStart(2, '0')}.odcs.yaml`),
      `${odcsText(contract, i)}${more}`,
    );
}

/** Plan's human, markdown and JSON outputs in the folder, each against its snapshot `name.*.txt`. */
async function expectSnapshots(
  opened: { cwd: string; env: Record<string, string>; sandbox: { url: string } },
  name: string,
): Promise<void> {
  const run = (...args: string[]) => cli(args, { cwd: opened.cwd, env: opened.env });
  const url = opened.sandbox.url;
  const found = {
    human: masked((await run('plan', '--no-color')).out, url),
    markdown: masked((await run('plan', '--format', 'markdown')).out, url),
    json: masked((await run('plan', '--json')).out, url),
  };
  for (const [kind, text] of Object.entries(found))
    await expect(text).toMatchFileSnapshot(path.join(SNAPSHOTS, `${name}.${kind}.txt`));
}

/** `contract`, the `i`th of a workspace, as an ODCS document (spec profile). */
function odcsText(contract: DesiredContract, i: number): string {
  const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  return odcsFileText(contract, { id, version: '1.0.0' }, 'spec', 'odcs.json').text;
}

/**
 * `contract`, the `i`th of a workspace, as the tool reads it back from its ODCS document, in the
 * spec profile's form: what a catalog holds once that document is applied.
 */
function asOdcsReadsIt(contract: DesiredContract, i: number): DesiredContract {
  const named = {
    ...contract,
    name: `c${i}`,
    fullyQualifiedName: `db.s.t${i}.dataContract_c${i}`,
    entity: { type: 'table', fullyQualifiedName: `db.s.t${i}` },
  };
  const parsed = parseContract(Buffer.from(odcsText(named, i)), `c${i}.odcs.yaml`);
  if (!parsed.ok)
    throw new Error(`generated ODCS document is invalid: ${parsed.problems[0]!.message}`);
  return contractForProfile(parsed.value, 'spec');
}

/**
 * A sandbox (spec profile) seeded with 20 generated live contracts (seed 20261126), and the
 * desired contract of each, for the files. `steady`: every other file holds what the catalog
 * holds, as a repository does once its changes are applied (`held`: what the catalog holds of
 * the `i`th live contract, by default all of it).
 */
async function specWorkspace(
  steady = false,
  held: (live: DesiredContract, i: number) => DesiredContract = (live) => live,
) {
  const sampled = fc.sample(fc.tuple(arbitraryContract(), arbitraryContract()), {
    seed: 20261126,
    numRuns: 20,
  });
  const pairs = steady
    ? sampled.map(([live, wanted], i) => {
        if (i % 2 !== 0) return [live, wanted] as const;
        const kept = held(withoutNulls(live), i);
        return [kept, kept] as const;
      })
    : sampled;
  const { assets, contracts, desired } = catalogFromPairs(pairs, 'db.s');
  const opened = await sandboxWithFolder(cleanups, {
    seed: seed({
      users: [
        {
          name: 'alice',
          permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
        },
      ],
      assets,
      dataProducts: [],
      dataContracts: contracts,
    }),
  });
  return { opened, desired };
}

/** Plan's outputs over the OpenMetadata workspace of `pairs`, against the snapshots `name.*`. */
async function expectOpenMetadataSnapshots(pairs: readonly Pair[], name: string): Promise<void> {
  const workspace = openMetadataWorkspace(pairs);
  const opened = await sandboxWithFolder(cleanups, {
    profile: 'openmetadata',
    seed: workspace.seed,
  });
  await writeContracts(opened.cwd, workspace.desired);
  await expectSnapshots(opened, name);
}

describe('plan output stays byte for byte what it was', () => {
  it('spec profile: 20 generated contracts, live and desired (seed 20261126)', async () => {
    const { opened, desired } = await specWorkspace();
    await writeContracts(opened.cwd, desired);
    await expectSnapshots(opened, 'spec');
  });

  it('spec profile: 20 generated contracts, every other one as the catalog holds it (seed 20261126)', async () => {
    const { opened, desired } = await specWorkspace(true);
    // Two of those files order a mapping's keys otherwise than the catalog's contract read back.
    for (const i of [2, 6]) desired[i] = reordered(desired[i]!);
    await writeContracts(opened.cwd, desired);
    await expectSnapshots(opened, 'spec-steady');
  });

  it('spec profile: the same 20 generated contracts written as ODCS documents (seed 20261126)', async () => {
    const { opened, desired } = await specWorkspace();
    await writeOdcsDocuments(opened.cwd, desired);
    await expectSnapshots(opened, 'spec-odcs');
  });

  it('spec profile: 20 generated ODCS documents, every other one as the catalog holds it (seed 20261126)', async () => {
    const { opened, desired } = await specWorkspace(true, asOdcsReadsIt);
    await writeOdcsDocuments(opened.cwd, desired);
    await expectSnapshots(opened, 'spec-odcs-steady');
  });

  it('spec profile: the same ODCS documents, each keeping servers and support only in git (seed 20261126)', async () => {
    const { opened, desired } = await specWorkspace(true, asOdcsReadsIt);
    await writeOdcsDocuments(opened.cwd, desired, KEPT_ONLY_IN_GIT);
    await expectSnapshots(opened, 'spec-odcs-kept');
  });

  it('openmetadata profile: 20 generated contracts OpenMetadata can store, live and desired (seed 20261126)', async () => {
    const pairs = fc.sample(pairArb, { seed: 20261126, numRuns: 20 });
    await expectOpenMetadataSnapshots(pairs, 'openmetadata-generated');
  });

  it('openmetadata profile: 20 generated contracts, every other one as the catalog holds it (seed 20261126)', async () => {
    const pairs = fc
      .sample(pairArb, { seed: 20261126, numRuns: 20 })
      .map((pair, i) =>
        i % 2 === 0 ? { ...pair, wanted: pair.live, absent: false, nulls: [] } : pair,
      );
    await expectOpenMetadataSnapshots(pairs, 'openmetadata-steady');
  });

  it('openmetadata profile: the demo catalog and its example files', async () => {
    const opened = await sandboxWithFolder(cleanups, { profile: 'openmetadata' });
    await cp(
      path.join(root, 'examples', 'openmetadata', 'contracts'),
      path.join(opened.cwd, 'contracts'),
      {
        recursive: true,
      },
    );
    await expectSnapshots(opened, 'openmetadata');
  });
});
