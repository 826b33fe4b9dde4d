// The ids of the users, teams and test cases a contract names, for a catalog that stores
// references by id: taken from the live contract, or looked up by name (each name once a run).
import { AuthError, CatalogError, NetworkError, NotFoundError } from '../model/errors.js';
import type { ContractFile } from '../contract/parse.js';
import {
  namedReferences,
  referenceKey,
  storedReferenceIds,
  type ReferenceType,
} from '../profile/references.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import type { LiveResult, PlanInput } from '../plan/create-plan.js';
import { joinRefusals, NOTHING_SENT } from '../plan/refusal-text.js';
import { pointerTo, type FindingCode } from '../model/finding.js';

/** An entity a reference names: its id, and a team's type. */
export interface ReferencedEntity {
  id: string;
  teamType?: string;
}

/** An entity by its name, each name asked once a run; null when the catalog has none. */
export type ReferenceLookup = (
  type: ReferenceType,
  fullyQualifiedName: string,
) => Promise<ReferencedEntity | null>;

export function referenceLookup(reader: CatalogReader): ReferenceLookup | undefined {
  const read = reader.referenceEntity?.bind(reader);
  if (read === undefined) return undefined;
  const asked = new Map<string, Promise<ReferencedEntity | null>>();
  return (type, fqn) => {
    const key = referenceKey(type, fqn);
    let answer = asked.get(key);
    if (answer === undefined) {
      answer = read(type, fqn).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      asked.set(key, answer);
    }
    return answer;
  };
}

const REFERENCE_NOUNS: Readonly<Record<ReferenceType, string>> = {
  user: 'user',
  team: 'team',
  testCase: 'test case',
};

/**
 * The ids of the entities `file` names: those the live contract already holds, the others looked
 * up by name, all at once. One whose references all stand on its live contract asks nothing.
 */
export async function lookUpReferences(
  file: ContractFile,
  read: Exclude<LiveResult, { kind: 'error' }>,
  lookup: ReferenceLookup,
  reader: CatalogReader,
): Promise<Pick<PlanInput, 'referenceIds' | 'referenceError'>> {
  const ids = read.kind === 'found' ? storedReferenceIds(read.contract) : new Map<string, string>();
  const asked = namedReferences(file.contract).filter(
    (ref) => !ids.has(referenceKey(ref.type, ref.fullyQualifiedName)),
  );
  if (asked.length === 0) return { referenceIds: ids };
  const answers = await Promise.allSettled(
    asked.map((ref) => lookup(ref.type, ref.fullyQualifiedName)),
  );
  const unknown: string[] = [];
  const cannotOwn: string[] = [];
  /** Where each kind's first reference is: the error is at the first of the kind said first. */
  const firstOf = new Map<FindingCode, string>();
  for (const [i, ref] of asked.entries()) {
    const answer = answers[i]!;
    const entity = `${REFERENCE_NOUNS[ref.type]} ${ref.fullyQualifiedName}`;
    if (answer.status === 'rejected') {
      const error: unknown = answer.reason;
      if (error instanceof AuthError) throw error;
      if (!(error instanceof CatalogError || error instanceof NetworkError)) throw error;
      return {
        referenceError: {
          code: 'reference.lookup-failed',
          severity: 'error',
          message: `${ref.field}[${ref.index}]: ${entity} could not be looked up (${reader.redact(error.message)})${NOTHING_SENT}`,
          pointer: pointerTo(ref.field, ref.index),
        },
      };
    }
    const found = answer.value;
    if (found === null) {
      unknown.push(`${ref.field}[${ref.index}] names ${entity}, which the catalog does not have`);
      if (!firstOf.has('reference.unknown'))
        firstOf.set('reference.unknown', pointerTo(ref.field, ref.index));
    } else {
      ids.set(referenceKey(ref.type, ref.fullyQualifiedName), found.id);
      // OpenMetadata: "Team of type Department can't own entities. Only Team of type Group can".
      if (ref.field === 'owners' && found.teamType !== undefined && found.teamType !== 'Group') {
        cannotOwn.push(
          `${ref.field}[${ref.index}] names ${entity}, a team of type ${found.teamType}, and the catalog lets only teams of type Group own anything`,
        );
        if (!firstOf.has('reference.cannot-own'))
          firstOf.set('reference.cannot-own', pointerTo(ref.field, ref.index));
      }
    }
  }
  const refused: string[] = [];
  if (unknown.length > 0)
    refused.push(
      `${unknown.join('; ')}: create ${unknown.length === 1 ? 'it' : 'them'} in the catalog first, or correct the name`,
    );
  if (cannotOwn.length > 0)
    refused.push(
      `${cannotOwn.join('; ')} (it refuses the write with a 400): name a team of type Group or a user instead`,
    );
  if (refused.length === 0) return { referenceIds: ids };
  const code: FindingCode = unknown.length > 0 ? 'reference.unknown' : 'reference.cannot-own';
  const pointer = firstOf.get(code)!;
  return {
    referenceError: { code, severity: 'error', message: joinRefusals(refused), pointer },
  };
}
