// Creating contracts: a planned create is sent as one POST, a lost answer is resolved by reading
// the contract by name, and a saved plan is stale when its create now exists (or a deleted
// contract keeps its name), its asset moved, or its asset now has a contract of another name.
import type { LiveContract } from '../catalog/client.js';
import { MANAGED_FIELDS, type DesiredContract } from '../model/contract.js';
import { diffContract } from '../diff/diff-contract.js';
import type { JsonObject } from '../model/json-value.js';
import type { Codec } from '../profile/codec-types.js';
import { NotFoundError, errorMessage } from '../model/errors.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { effectiveContractOf, ownContractName } from '../read/create-blockers.js';
import { assetKey, lookupAssets } from '../read/live-assets.js';
import { CONTRACT_FIELDS } from '../read/read-plan-inputs.js';
import type { Plan, PlannedChange } from '../plan/types.js';
import { answerLost } from './guard-refusals.js';
import { failure, failureText, type ContractResult } from './results.js';

/** What creating needs of the catalog. CatalogClient provides it. */
export interface CatalogCreator extends CatalogReader {
  createContract(body: Record<string, unknown>): Promise<LiveContract>;
}

/**
 * Why each planned create can no longer be applied as planned: its contract now exists, or its
 * asset is gone or has another id.
 */
export async function movedCreates(plan: Plan, reader: CatalogReader): Promise<string[]> {
  const creates = plan.changes.filter((change) => change.action === 'create' && change.create);
  if (creates.length === 0) return [];
  const assets = await lookupAssets(
    reader,
    plan.catalogProfile,
    creates.map((change) => ({
      type: change.create!.assetType,
      fullyQualifiedName: change.create!.assetFullyQualifiedName,
    })),
  );
  const moved: string[] = [];
  await Promise.all(
    creates.map(async (change) => {
      const { assetId, assetType, assetFullyQualifiedName } = change.create!;
      try {
        // Deleted ones too: a deleted contract keeps its name, which the catalog will not reuse.
        const existing = await reader.getContractByName(change.fullyQualifiedName, [], {
          include: 'all',
        });
        moved.push(
          existing.deleted === true
            ? `${change.fullyQualifiedName} (planned as a new contract, but a deleted contract of that name, id ${existing.id}, now keeps the name)`
            : `${change.fullyQualifiedName} (planned as a new contract, but it now exists, at version ${String(existing.version)})`,
        );
        return;
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      const asset = assets.get(assetKey(assetType, assetFullyQualifiedName));
      if (asset?.kind !== 'found' || asset.asset.id !== assetId) {
        moved.push(
          `${change.fullyQualifiedName} (planned on ${assetType} ${assetFullyQualifiedName} with id ${assetId}, which ${asset?.kind === 'found' ? `now has id ${asset.asset.id}` : asset?.kind === 'absent' ? 'no longer exists' : 'could not be looked up'})`,
        );
        return;
      }
      // The catalog keeps one contract per asset: one made meanwhile under another name.
      const other = ownContractName(
        (await effectiveContractOf(reader, { id: assetId, type: assetType })).contract,
      );
      if (other !== undefined)
        moved.push(
          `${change.fullyQualifiedName} (planned as a new contract, but ${assetType} ${assetFullyQualifiedName} now has contract ${other})`,
        );
    }),
  );
  return moved;
}

/**
 * The managed fields a create sent that the created contract lacks: a server that builds the new
 * contract without some of them (as one of OpenMetadata's mappers did with terms of use, security
 * and SLA) answers 201 all the same.
 */
function droppedFields(body: Record<string, unknown>, contract: LiveContract): string[] {
  const absent = (value: unknown) => value === undefined || value === null;
  return MANAGED_FIELDS.filter((field) => !absent(body[field]) && absent(contract[field]));
}

/**
 * The contract a create body asks for, as the catalog stores it (its managed fields, on the wire):
 * OpenMetadata takes the terms of use as text and stores `{content}`.
 */
function askedFor(change: PlannedChange, codec: Pick<Codec, 'profile'>): DesiredContract {
  const create = change.create!;
  const body = create.body as JsonObject;
  const asked: DesiredContract = {
    name: String(body.name),
    fullyQualifiedName: change.fullyQualifiedName,
    entity: { type: create.assetType, fullyQualifiedName: create.assetFullyQualifiedName },
  };
  for (const field of MANAGED_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    asked[field] =
      field === 'termsOfUse' && codec.profile === 'openmetadata' && typeof value === 'string'
        ? { content: value }
        : value;
  }
  return asked;
}

/**
 * Creates a planned contract. After a lost answer the contract is read by name: there, and holding
 * what was sent, it was created; there with other content, another writer created it (a conflict:
 * existence is not agreement); absent, the same POST is sent again (at most `attempts` times);
 * unreadable, the outcome is unknown. A POST is never sent again without that read.
 */
export async function applyCreate(
  change: PlannedChange,
  catalog: CatalogCreator,
  attempts: number,
  codec: Pick<Codec, 'profile' | 'shapes'>,
): Promise<ContractResult> {
  const names = { file: change.file, fullyQualifiedName: change.fullyQualifiedName };
  const redact = catalog.redact.bind(catalog);
  const created = (contract: LiveContract, confirmedByReread: boolean): ContractResult => {
    const dropped = droppedFields(change.create!.body, contract);
    if (dropped.length > 0)
      return {
        status: 'failed',
        ...names,
        httpStatus: null,
        errorType: 'NOT_KEPT',
        message: `created (id ${contract.id}, version ${String(contract.version)}), but the catalog kept no ${dropped.join(', ')} of what was sent: the next plan shows ${dropped.length === 1 ? 'it' : 'them'} as a change to apply`,
      };
    return {
      status: 'applied',
      ...names,
      oldVersion: null,
      newVersion: typeof contract.version === 'number' ? contract.version : null,
      changeDescription: null,
      confirmedByReread,
      replannedAt: null,
      createdId: contract.id,
    };
  };
  for (let lostAnswers = 1; ; lostAnswers++) {
    let failed: unknown;
    try {
      return created(await catalog.createContract(change.create!.body), false);
    } catch (error) {
      failed = error;
    }
    if (!answerLost(failed)) return failure(change, failed, redact);
    try {
      const found = await catalog.getContractByName(change.fullyQualifiedName, CONTRACT_FIELDS);
      const differs = diffContract(found, askedFor(change, codec), codec.shapes);
      if (differs.length === 0) return created(found, true);
      const fields = [...new Set(differs.map((op) => op.path.split('/')[1]!))];
      return {
        status: 'failed',
        ...names,
        httpStatus: null,
        errorType: 'CONFLICT',
        message: `the answer to the POST was lost (${failureText(failed, redact)}), and the contract of that name the catalog now holds (id ${found.id}, version ${String(found.version)}${typeof found.updatedBy === 'string' ? `, last changed by ${found.updatedBy}` : ''}) differs from what this create sent in ${fields.join(', ')}: another writer created it, and this create is not in place. Run plan to see it against the file`,
      };
    } catch (error) {
      if (!(error instanceof NotFoundError)) {
        return {
          status: 'failed',
          ...names,
          httpStatus: null,
          errorType: 'OUTCOME_UNKNOWN',
          message: `the answer to the POST was lost (${failureText(failed, redact)}) and reading the contract back failed (${errorMessage(error, redact)}): it may or may not exist now; run plan to see`,
        };
      }
    }
    if (lostAnswers > attempts) {
      const result = failure(change, failed, redact);
      return {
        ...result,
        message: `${result.message}; not created: read back, the catalog has no contract named ${change.fullyQualifiedName}`,
      };
    }
  }
}
