// The version a PATCH leaves a contract at, with its changeDescription. Under the spec every
// change is a new version. OpenMetadata folds the changes one user makes within ten minutes into
// one version (its session consolidation, `consolidateChanges` in `EntityRepository`): the
// version does not move, changeDescription then runs from the version before the session, and
// incrementalChangeDescription says what this PATCH alone did.
import { describeChange, nextVersion } from './change-description.js';
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
}

/**
 * The version before the session a PATCH by `writer` continues, when OpenMetadata would fold the
 * PATCH into that session's version: the same user as the last change, within ten minutes of it,
 * on a contract changed since its first version, whose version before is kept.
 */
function sessionStart(current: ContractResource, writer: Writer): ContractResource | undefined {
  const previousVersion = (current.changeDescription as { previousVersion?: unknown } | undefined)
    ?.previousVersion;
  if (
    writer.profile !== 'openmetadata' ||
    current.version <= 0.1 ||
    typeof previousVersion !== 'number' ||
    current.updatedBy !== writer.user ||
    typeof current.updatedAt !== 'number' ||
    writer.now - current.updatedAt > SESSION_MS
  )
    return undefined;
  return writer.store.keptVersion(current.id, previousVersion);
}

/** `patched` (a change of `current`) as stored: version, updatedAt, updatedBy and descriptions. */
export function nextVersionOf(
  current: ContractResource,
  patched: Json,
  writer: Writer,
): ContractResource {
  const change = describeChange(current, patched, current.version);
  const next: Json = { ...patched, updatedAt: writer.now, updatedBy: writer.user };
  const previous = sessionStart(current, writer);
  if (previous === undefined) {
    writer.store.keepVersion(current);
    next.version = nextVersion(current.version);
    next.changeDescription = change;
  } else {
    const session = describeChange(previous, patched, previous.version);
    const changes = [session.fieldsAdded, session.fieldsUpdated, session.fieldsDeleted].flat();
    next.version = changes.length > 0 ? nextVersion(previous.version) : previous.version;
    next.changeDescription = session;
  }
  if (writer.profile === 'openmetadata') next.incrementalChangeDescription = change;
  return next as ContractResource;
}
