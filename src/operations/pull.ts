// The pull operation, shared by `contracts pull` and the Action's drift job: the files planned
// against the catalog as plan plans them, and each whose live contract differs in what it sets
// edited to hold the catalog's values there (src/pull/), with who changed them (the contract's
// version history) and what git changed too since the last apply. Writes the files unless asked
// only to check; prints nothing.
import { lstat, readFile, rename, writeFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogClient, LiveContract } from '../catalog/client.js';
import { NotFoundError } from '../model/errors.js';
import type { ContractHistory } from '../model/history.js';
import type { DesiredContract } from '../model/contract.js';
import { parseContract, type ContractFile } from '../contract/parse.js';
import { contractForProfile } from '../contract/odcs-file.js';
import { isRepository, sameRepository, type Repository } from '../git/repository.js';
import { fileAtRef } from '../pipeline/git.js';
import { planFromFiles, type PlanRequest } from '../pipeline/plan-pipeline.js';
import type { PlannedChange } from '../plan/types.js';
import type { Codec } from '../profile/codec.js';
import { managerOfContract } from '../read/marker.js';
import { pullFile } from '../pull/pull-file.js';
import { catalogEditsSince, fieldsSinceApply } from '../pull/since-apply.js';
import type { PulledContract, PullReport } from '../pull/types.js';
import type { Problem } from '../model/problem.js';

export interface PullRequest extends Pick<
  PlanRequest,
  'paths' | 'cwd' | 'catalogUrl' | 'profile' | 'progress'
> {
  /** Write nothing; say what would be written. */
  check: boolean;
  /** The checkout the files are in (markers name the commit of the last apply in it). */
  repository: PlanRequest['repository'];
  /** The contract's version history, when the catalog keeps one. */
  history?: (id: string) => Promise<ContractHistory>;
}

export type PullOutcome = { ok: true; report: PullReport } | { ok: false; problems: Problem[] };

/** The contract of a file's text (as plan reads it), or undefined when it does not validate. */
function contractOf(text: string, file: string, codec: Codec): DesiredContract | undefined {
  const read = parseContract(text, file);
  return read.ok ? contractForProfile(read.value, codec.profile) : undefined;
}

/** `text` written to `absolute` in place of `before`: refused when the file moved or is a link. */
async function writeInPlace(absolute: string, before: string, text: string): Promise<void> {
  const stat = await lstat(absolute);
  if (!stat.isFile()) throw new Error(`${absolute} is not a plain file; it is left as it is`);
  if ((await readFile(absolute, 'utf8')) !== before)
    throw new Error(`${absolute} changed while pull read the catalog; it is left as it is`);
  const temporary = `${absolute}.contracts-pull-${process.pid}`;
  try {
    await writeFile(temporary, text, { mode: stat.mode & 0o777, flag: 'wx' });
    await rename(temporary, absolute);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

interface OneFile {
  change: PlannedChange;
  file: ContractFile;
  live: LiveContract;
}

export async function pullOperation(
  request: PullRequest,
  client: CatalogClient,
): Promise<PullOutcome> {
  const outcome = await planFromFiles(
    {
      paths: request.paths,
      cwd: request.cwd,
      catalogUrl: request.catalogUrl,
      gitCommit: null,
      // Pull sends nothing: no ETag is needed, and a whole repository is read by pages.
      keepLive: 'without-etags',
      sealed: false,
      consumers: false,
      ...(request.profile !== undefined && { profile: request.profile }),
      ...(request.progress !== undefined && { progress: request.progress }),
      repository: request.repository,
    },
    client,
  );
  if (!outcome.ok) return { ok: false, problems: outcome.problems };
  const { plan, files, liveContracts, codec } = outcome;
  const repository = await request.repository;
  const byName = new Map(files.map((file) => [file.identity.fullyQualifiedName, file]));
  const contracts: PulledContract[] = [];
  let unchanged = 0;
  for (const change of plan.changes) {
    const base = blank(change);
    const file = byName.get(change.fullyQualifiedName);
    const live = liveContracts.get(change.fullyQualifiedName);
    if (change.action === 'create' || change.action === 'missing') {
      const message = (await deletedSaying(change, client)) ?? NEVER_APPLIED;
      contracts.push({ ...base, status: 'not-in-catalog', message });
    } else if (change.action === 'error') {
      // A file whose contract the catalog deleted cannot be planned (its name is taken).
      const deleted = change.id === null ? await deletedSaying(change, client) : undefined;
      contracts.push(
        deleted === undefined
          ? { ...base, status: 'error', message: change.error }
          : { ...base, status: 'not-in-catalog', message: deleted },
      );
    } else if (change.action !== 'update' || file === undefined || live === undefined) {
      unchanged += 1;
    } else {
      const pulled = await pullOne({ change, file, live }, request, codec, repository);
      if (pulled === undefined) unchanged += 1;
      else contracts.push(pulled);
    }
  }
  return {
    ok: true,
    report: { catalogUrl: plan.catalogUrl, check: request.check, contracts, unchanged },
  };
}

function blank(change: PlannedChange): PulledContract {
  return {
    file: change.file,
    fullyQualifiedName: change.fullyQualifiedName,
    status: 'pulled',
    liveVersion: change.liveVersion,
    fields: [],
    conflicts: [],
    notApplied: [],
    leftOut: [],
    rewritten: false,
    appliedAt: null,
    history: null,
    message: null,
  };
}

const NEVER_APPLIED =
  'the catalog has no contract of this name, deleted or not: it was never applied, or was deleted for good; the file is kept (apply creates it)';

/** What is said of a contract the catalog deleted (softly), by whom; undefined when it did not. */
async function deletedSaying(
  change: PlannedChange,
  client: CatalogClient,
): Promise<string | undefined> {
  let deleted: LiveContract;
  try {
    deleted = await client.getContractByName(change.fullyQualifiedName, [], {
      include: 'deleted',
    });
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
  if (deleted.deleted !== true) return undefined;
  const by = typeof deleted.updatedBy === 'string' ? ` by ${deleted.updatedBy}` : '';
  return `the catalog deleted this contract (version ${String(deleted.version)}${by}); the file is kept: restore the contract with \`contracts restore ${change.fullyQualifiedName}\`, or delete the file`;
}

/** The commit of the last apply of `live` from this checkout, by its marker. */
function appliedCommit(live: LiveContract, repository: Repository | undefined): string | null {
  const manager = managerOfContract(live);
  if (manager?.commit === undefined || repository === undefined) return null;
  return sameRepository(manager.repository, repository.url) ? manager.commit : null;
}

async function pullOne(
  { change, file, live }: OneFile,
  request: PullRequest,
  codec: Codec,
  checkout: Awaited<PullRequest['repository']>,
): Promise<PulledContract | undefined> {
  const absolute = path.resolve(request.cwd, change.file);
  const text = await readFile(absolute, 'utf8');
  const current = contractOf(text, absolute, codec);
  if (current === undefined) return undefined;
  const repository = isRepository(checkout) ? checkout : undefined;
  const commit = appliedCommit(live, repository);
  const manager = managerOfContract(live);
  const appliedText =
    commit === null || repository === undefined || manager === undefined
      ? undefined
      : await fileAtRef(request.cwd, commit, path.join(repository.top, manager.path));
  const applied = appliedText === undefined ? undefined : contractOf(appliedText, absolute, codec);
  const fields = fieldsSinceApply(current, applied, live, codec);
  const base: PulledContract = {
    ...blank(change),
    conflicts: fields.conflicts,
    notApplied: fields.notApplied,
    appliedAt: applied === undefined ? null : commit,
  };
  if (fields.pull.length === 0)
    return fields.notApplied.length === 0 ? undefined : { ...base, status: 'ahead' };
  const pulled = pullFile({
    file: absolute,
    text,
    contract: current,
    format: file.format === 'odcs' ? 'odcs' : 'native',
    live,
    codec,
    only: fields.pull,
  });
  if (pulled.kind === 'same') return undefined;
  const history =
    request.history === undefined
      ? null
      : await historyOf(request.history, live, applied ?? current, pulled.fields, codec);
  if (pulled.kind === 'refused')
    return { ...base, status: 'refused', fields: pulled.fields, history, message: pulled.reason };
  if (!request.check) {
    try {
      await writeInPlace(absolute, text, pulled.text);
    } catch (error) {
      return {
        ...base,
        status: 'refused',
        fields: pulled.fields,
        history,
        message: (error as Error).message,
      };
    }
  }
  return {
    ...base,
    fields: pulled.fields,
    leftOut: pulled.leftOut,
    rewritten: pulled.rewritten,
    history,
  };
}

async function historyOf(
  read: (id: string) => Promise<ContractHistory>,
  live: LiveContract,
  agreed: DesiredContract,
  fields: readonly string[],
  codec: Codec,
): Promise<PulledContract['history']> {
  const history = await read(live.id);
  if ('unavailable' in history) return { unavailable: history.unavailable };
  return catalogEditsSince(history.versions, agreed, fields, codec);
}
