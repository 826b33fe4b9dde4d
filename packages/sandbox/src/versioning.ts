// The version a PATCH leaves a contract at, with its changeDescription. Under the spec every
// change is a new version. OpenMetadata folds the changes one user makes within ten minutes into
// one version (its session consolidation, `consolidateChanges` in `EntityRepository`): the
// version does not move, changeDescription then runs from the version before the session, and
// incrementalChangeDescription says what this PATCH alone did. Outside a session, OpenMetadata
// stores a PATCH only when it records a change (`storeUpdate`): one that records none (a column's
// description, a reorder) is answered as patched, at the version it had, and not stored. A PATCH
// with If-Match is never folded, and on 1.10.0–1.13.0 counts only the generic entity's fields.
import { describeChange, nextVersion, type ChangeDescription } from './change-description.js';
import type { Json } from './http.js';
import type { SandboxProfile } from './openmetadata.js';
import type { ContractResource } from './seed.js';
import type { Store } from './store.js';

const SESSION_MS = 10 * 60 * 1000;

export interface Writer {
  /** The user who sends the PATCH. */
  user: string;
  now: number;
  profile: SandboxProfile;
  /** Where earlier versions are kept. */
  store: Store;
  /**
   * The PATCH carries If-Match: it is never folded into the user's session, on any release
   * (1.x `EntityUpdater.consolidateChanges` skips under optimistic locking; 2.x
   * `SessionConsolidationPolicy.canConsolidate`).
   */
  optimisticLocking?: boolean;
  /**
   * The release builds the generic entity updater for this PATCH (If-Match on 1.10.0–1.13.0,
   * open-metadata/OpenMetadata#28876): it counts no change of the data contract's own fields.
   */
  genericUpdater?: boolean;
}

/**
 * The version before the session a PATCH by `writer` continues, when OpenMetadata would fold the
 * PATCH into that session's version (`EntityRepository.consolidateChanges`, 1.12.6): a PATCH (the
 * only writer here) by the same user as the last change, within ten minutes of it, on a contract
 * changed since its first version (version > 0.1), not deleted, not renamed by it, whose version
 * before is kept. (The server also wants the change's source to differ from the last summary's;
 * every write the sandbox takes comes from one source, so that never stops a fold here.)
 */
function sessionStart(
  current: ContractResource,
  patched: Json,
  writer: Writer,
): ContractResource | undefined {
  const previousVersion = (current.changeDescription as { previousVersion?: unknown } | undefined)
    ?.previousVersion;
  if (
    writer.profile !== 'openmetadata' ||
    current.version <= 0.1 ||
    current.deleted === true ||
    patched.name !== current.name ||
    typeof previousVersion !== 'number' ||
    current.updatedBy !== writer.user ||
    typeof current.updatedAt !== 'number' ||
    writer.now - current.updatedAt > SESSION_MS
  )
    return undefined;
  return writer.store.keptVersion(current.id, previousVersion);
}

function isEmpty(change: ChangeDescription): boolean {
  return [change.fieldsAdded, change.fieldsUpdated, change.fieldsDeleted].every(
    (list) => list.length === 0,
  );
}

/** The fields only the data contract's updater counts; the generic entity updater does not. */
const CONTRACT_UPDATER_FIELDS: ReadonlySet<string> = new Set([
  'entityStatus',
  'sla',
  'termsOfUse',
  'security',
  'schema',
  'semantics',
  'qualityExpectations',
]);

/** `change` without the entries of the data contract's own fields. */
function genericChange(change: ChangeDescription): ChangeDescription {
  const counted = (entry: { name: string }) =>
    !CONTRACT_UPDATER_FIELDS.has(entry.name.split('.')[0]!);
  return {
    ...change,
    fieldsAdded: change.fieldsAdded.filter(counted),
    fieldsUpdated: change.fieldsUpdated.filter(counted),
    fieldsDeleted: change.fieldsDeleted.filter(counted),
  };
}

/**
 * `patched` (a change of `current`) with its version, updatedAt, updatedBy and descriptions:
 * `contract` as the catalog keeps it (when `stored`), and `answer`, what the PATCH is answered
 * with, whose changeDescription is this request's own on every release
 * (`patchCommonWithOptimisticLocking`, `EntityPatchService.patch`).
 */
export function nextVersionOf(
  current: ContractResource,
  patched: Json,
  writer: Writer,
): { contract: ContractResource; answer: ContractResource; stored: boolean } {
  const described = describeChange(current, patched, current.version, writer.profile);
  const change = writer.genericUpdater === true ? genericChange(described) : described;
  const next: Json = { ...patched, updatedAt: writer.now, updatedBy: writer.user };
  const previous =
    writer.optimisticLocking === true ? undefined : sessionStart(current, patched, writer);
  if (previous === undefined && writer.profile === 'openmetadata' && isEmpty(change)) {
    // Nothing counted: answered as patched, at the version it had, and not stored.
    const answer: Json = {
      ...patched,
      version: current.version,
      updatedAt: current.updatedAt,
      updatedBy: current.updatedBy,
      changeDescription: change,
      incrementalChangeDescription: change,
    };
    return {
      contract: current,
      answer: answer as ContractResource,
      stored: false,
    };
  }
  if (previous === undefined) {
    writer.store.keepVersion(current);
    next.version = nextVersion(current.version);
    next.changeDescription = change;
  } else {
    const session = describeChange(previous, patched, previous.version, writer.profile);
    next.version = isEmpty(session) ? previous.version : nextVersion(previous.version);
    next.changeDescription = session;
  }
  if (writer.profile !== 'openmetadata')
    return { contract: next as ContractResource, answer: next as ContractResource, stored: true };
  next.incrementalChangeDescription = change;
  return {
    contract: next as ContractResource,
    answer: { ...next, changeDescription: change } as unknown as ContractResource,
    stored: true,
  };
}
