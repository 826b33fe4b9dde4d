// What every contract the sandbox would store must satisfy, whether created or patched: an
// entity that never changes, a status the catalog (and release) stores, the shapes of its fields,
// columns its asset has, and under the openmetadata profile OpenMetadata's own checks
// (references, its model of dataContract.json, data asset rules, custom properties).
import { isDeepStrictEqual } from 'node:util';
import { checkCustomProperties } from './custom-properties.js';
import { ApiError, type Json } from './http.js';
import { checkStoredContract, resolveReferences, type SandboxProfile } from './openmetadata.js';
import { checkDataAssetRules } from './asset-rules.js';
import { schemaNamesOf } from './asset-schemas.js';
import type { OpenMetadataRelease } from './release.js';
import type { Directory } from './directory.js';
import type { ContractResource } from './seed.js';
import type { Store } from './store.js';

export interface CheckingContext {
  store: Store;
  profile: SandboxProfile;
  /** The entities references may name (openmetadata). */
  directory?: Directory;
  /** The OpenMetadata release played (openmetadata). */
  release?: OpenMetadataRelease;
}

const STATUSES: Record<SandboxProfile, readonly string[]> = {
  spec: ['Draft', 'Active', 'Deprecated'],
  openmetadata: [
    'Draft',
    'In Review',
    'Approved',
    'Archived',
    'Deprecated',
    'Rejected',
    'Unprocessed',
  ],
};

/** The statuses the catalog stores: OpenMetadata's, Archived only from the release that has it. */
function statusesOf(context: CheckingContext): readonly string[] {
  const statuses = STATUSES[context.profile];
  return context.release === undefined || context.release.has('archivedStatus')
    ? statuses
    : statuses.filter((status) => status !== 'Archived');
}

/** Checks `after`, the contract `before` becomes (`created`: the contract a create makes). */
export function checkContract(
  before: ContractResource,
  after: Json,
  context: CheckingContext,
  created = false,
): void {
  if (!isDeepStrictEqual(after.entity, before.entity))
    throw new ApiError(400, 'entity of a data contract cannot be changed');
  const statuses = statusesOf(context);
  if (after.entityStatus !== undefined && !statuses.includes(after.entityStatus as string)) {
    throw new ApiError(
      400,
      `entityStatus must be one of [${statuses.join(', ')}], got ${JSON.stringify(after.entityStatus)}`,
    );
  }
  if (context.profile === 'openmetadata') {
    resolveReferences(after, context.directory);
    checkStoredContract(after);
    checkDataAssetRules(created ? null : before, after, context.store.dataAssetRules);
    checkCustomProperties(after, context.store.customProperties);
  }
  for (const field of ['description', 'termsOfUse']) {
    if (
      after[field] !== undefined &&
      typeof after[field] !== 'string' &&
      !(field === 'termsOfUse' && typeof after[field] === 'object')
    ) {
      throw new ApiError(400, `${field} must be a string`);
    }
  }
  for (const field of ['sla', 'security', 'extension']) {
    const value = after[field];
    if (
      value !== undefined &&
      (value === null || typeof value !== 'object' || Array.isArray(value))
    )
      throw new ApiError(400, `${field} must be an object`);
  }
  const listItems = (field: string, required: readonly string[]): Json[] => {
    const value = after[field];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ApiError(400, `${field} must be an array`);
    return value.map((item, i) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item))
        throw new ApiError(400, `${field}[${i}] must be an object`);
      for (const key of required) {
        if (typeof (item as Json)[key] !== 'string')
          throw new ApiError(400, `${field}[${i}].${key} must be a string`);
      }
      return item as Json;
    });
  };
  const columns = listItems('schema', ['name', 'dataType']);
  listItems('semantics', ['name']);
  listItems('qualityExpectations', ['fullyQualifiedName']);
  for (const field of ['owners', 'reviewers']) {
    for (const [i, ref] of listItems(field, ['type']).entries()) {
      if (ref.type !== 'user' && ref.type !== 'team')
        throw new ApiError(400, `${field}[${i}].type must be user or team`);
    }
  }
  const asset =
    before.entity.id !== undefined
      ? context.store.assets.get(before.entity.id)
      : context.store.assetByFqn(before.entity.type, before.entity.fullyQualifiedName);
  // The specification's topics are checked by their columns; OpenMetadata's by their message
  // fields, and one without a message schema has none.
  const known =
    asset === undefined
      ? undefined
      : context.profile === 'openmetadata'
        ? schemaNamesOf(asset)
        : asset.columns && new Set(asset.columns.map((column) => column.name));
  if (known !== undefined && columns.length > 0) {
    const missing = columns
      .map((column) => column.name as string)
      .filter((name) => !known.has(name));
    if (missing.length > 0) {
      throw new ApiError(
        400,
        `Schema validation failed. The following fields specified in the data contract do not exist in the ${before.entity.type}: ${missing.join(', ')}`,
      );
    }
  }
}
