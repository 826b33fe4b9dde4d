// The sandbox's seed format (DESIGN.md "Seed file") and its checks. A bad seed is refused with
// a sentence that names the entry, never half-loaded.
import { createHash, randomUUID } from 'node:crypto';

export type Permission =
  'ViewDataContract' | 'EditDataContract' | 'DeleteDataContract' | 'SearchEntities' | 'EditLineage';
export const PERMISSIONS: readonly Permission[] = [
  'ViewDataContract',
  'EditDataContract',
  'DeleteDataContract',
  'SearchEntities',
  'EditLineage',
];

export interface SeedUser {
  name: string;
  permissions: Permission[];
  /** OpenMetadata's admin role: every operation on every resource, whatever `permissions` say. */
  admin?: boolean;
  /** Contract FQNs this user may not edit even with EditDataContract (a resource-level policy). */
  denyEdit?: string[];
  [extra: string]: unknown;
}

export interface SeedAsset {
  id: string;
  entityType: string;
  name: string;
  fullyQualifiedName: string;
  serviceType?: string;
  service?: { name: string };
  database?: { name: string };
  databaseSchema?: { name: string };
  description?: string;
  columns?: { name: string; dataType: string; [extra: string]: unknown }[];
  tags?: { tagFQN: string }[];
  owners?: { type: string; name: string }[];
  dataProducts?: string[];
  deleted?: boolean;
  [extra: string]: unknown;
}

export interface SeedDataProduct {
  /** A UUID; one derived from the name when the seed gives none. */
  id?: string;
  name: string;
  /** FQN of the product's own contract. */
  contract?: string;
  [extra: string]: unknown;
}

export type ContractResource = Record<string, unknown> & {
  id: string;
  name: string;
  fullyQualifiedName: string;
  entity: { id?: string; type: string; name?: string; fullyQualifiedName: string };
  version: number;
};

export interface Seed {
  users: SeedUser[];
  assets: SeedAsset[];
  dataProducts: SeedDataProduct[];
  dataContracts: ContractResource[];
  /** Teams a contract may name (besides those owning an asset or named by a contract). */
  teams?: { name: string; [extra: string]: unknown }[];
  /** Test cases a contract may name as quality expectations (likewise). */
  testCases?: { fullyQualifiedName: string; [extra: string]: unknown }[];
  /**
   * OpenMetadata's data asset rules (Settings › Preferences › Data Asset Rules), in place of its
   * defaults: `{name, rule, enabled, ignoredEntities?, entityType?, description?}`.
   */
  dataAssetRules?: { name: string; rule: string; enabled: boolean; [extra: string]: unknown }[];
  /**
   * Lineage edges, each from an upstream asset to a downstream one, both named by their
   * fullyQualifiedName (an asset of the seed): what `GET /v1/lineage/...` walks.
   */
  lineage?: { from: string; to: string }[];
  /**
   * OpenMetadata's custom properties (defined through `PUT /v1/metadata/types/{id}`; the UI has
   * no page for a data contract's): `{name, entityType?, propertyType?, description?, config?}`,
   * of data contracts unless `entityType` says otherwise, of type string unless `propertyType`
   * does. An entity's `extension` may hold only those; none unless given, as on a new server.
   */
  customProperties?: {
    name: string;
    entityType?: string;
    propertyType?: string;
    description?: string;
    /** An enum's `{values, multiSelect}`, as `customPropertyConfig.config`. */
    config?: unknown;
  }[];
}

const SEED_KEYS = [
  'users',
  'assets',
  'dataProducts',
  'dataContracts',
  'teams',
  'testCases',
  'dataAssetRules',
  'customProperties',
  'lineage',
];

export class SeedError extends Error {
  override name = 'SeedError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function requireString(record: Record<string, unknown>, field: string, where: string): string {
  const value = record[field];
  if (typeof value !== 'string' || value === '')
    throw new SeedError(`${where}.${field} must be a non-empty string`);
  return value;
}

function list(seed: Record<string, unknown>, field: string): unknown[] {
  const value = seed[field] ?? [];
  if (!Array.isArray(value)) throw new SeedError(`${field} must be a list`);
  return value;
}

/**
 * Checks a parsed seed and returns it with defaults filled in where the seed leaves them out:
 * a contract's id (a new UUID), version (0.1), updatedAt (now) and updatedBy ("admin"). Everything
 * the seed gives is kept exactly as given.
 */
export function checkSeed(raw: unknown, now = Date.now()): Seed {
  if (!isRecord(raw))
    throw new SeedError(
      'the seed must be a JSON object with users, assets, dataProducts and dataContracts',
    );
  for (const key of Object.keys(raw)) {
    if (!SEED_KEYS.includes(key)) {
      throw new SeedError(`unknown seed key '${key}'; allowed keys are ${SEED_KEYS.join(', ')}`);
    }
  }
  const users = list(raw, 'users').map((user, i): SeedUser => {
    const where = `users[${i}]`;
    if (!isRecord(user)) throw new SeedError(`${where} must be an object`);
    requireString(user, 'name', where);
    const permissions: unknown = user.permissions ?? [];
    if (
      !Array.isArray(permissions) ||
      permissions.some((p) => !PERMISSIONS.includes(p as Permission))
    ) {
      throw new SeedError(`${where}.permissions must be a list of ${PERMISSIONS.join(', ')}`);
    }
    if (user.admin !== undefined && typeof user.admin !== 'boolean')
      throw new SeedError(`${where}.admin must be true or false`);
    if (
      user.denyEdit !== undefined &&
      (!Array.isArray(user.denyEdit) || user.denyEdit.some((fqn) => typeof fqn !== 'string'))
    ) {
      throw new SeedError(`${where}.denyEdit must be a list of contract FQNs`);
    }
    return { ...user, permissions: permissions as Permission[] } as SeedUser;
  });
  const assetIds = new Set<string>();
  const assets = list(raw, 'assets').map((asset, i): SeedAsset => {
    const where = `assets[${i}]`;
    if (!isRecord(asset)) throw new SeedError(`${where} must be an object`);
    for (const field of ['id', 'entityType', 'name', 'fullyQualifiedName'])
      requireString(asset, field, where);
    if (assetIds.has(asset.id as string))
      throw new SeedError(`${where}.id ${String(asset.id)} is used twice`);
    assetIds.add(asset.id as string);
    if (asset.columns !== undefined && !Array.isArray(asset.columns))
      throw new SeedError(`${where}.columns must be a list`);
    if (
      asset.dataProducts !== undefined &&
      (!Array.isArray(asset.dataProducts) || asset.dataProducts.some((p) => typeof p !== 'string'))
    ) {
      throw new SeedError(`${where}.dataProducts must be a list of product names`);
    }
    return asset as SeedAsset;
  });
  const dataProducts = list(raw, 'dataProducts').map((product, i): SeedDataProduct => {
    const where = `dataProducts[${i}]`;
    if (!isRecord(product)) throw new SeedError(`${where} must be an object`);
    requireString(product, 'name', where);
    if (product.contract !== undefined) requireString(product, 'contract', where);
    if (product.id !== undefined) requireString(product, 'id', where);
    // A data product has a UUID, as every entity does (its search document shows it).
    return { id: productId(product.name as string), ...product } as SeedDataProduct;
  });
  const contractIds = new Set<string>();
  const contractFqns = new Set<string>();
  const dataContracts = list(raw, 'dataContracts').map((contract, i): ContractResource => {
    const where = `dataContracts[${i}]`;
    if (!isRecord(contract)) throw new SeedError(`${where} must be an object`);
    requireString(contract, 'name', where);
    const fqn = requireString(contract, 'fullyQualifiedName', where);
    if (!isRecord(contract.entity))
      throw new SeedError(`${where}.entity must be an object with type and fullyQualifiedName`);
    requireString(contract.entity, 'type', `${where}.entity`);
    requireString(contract.entity, 'fullyQualifiedName', `${where}.entity`);
    const filled: Record<string, unknown> = { ...contract };
    filled.id ??= randomUUID();
    filled.version ??= 0.1;
    filled.updatedAt ??= now;
    filled.updatedBy ??= 'admin';
    if (typeof filled.id !== 'string') throw new SeedError(`${where}.id must be a string`);
    if (typeof filled.version !== 'number')
      throw new SeedError(`${where}.version must be a number`);
    if (contractIds.has(filled.id)) throw new SeedError(`${where}.id ${filled.id} is used twice`);
    if (contractFqns.has(fqn))
      throw new SeedError(`${where}.fullyQualifiedName ${fqn} is used twice`);
    contractIds.add(filled.id);
    contractFqns.add(fqn);
    return filled as ContractResource;
  });
  for (const product of dataProducts) {
    if (product.contract !== undefined && !contractFqns.has(product.contract)) {
      throw new SeedError(
        `data product ${product.name} names contract ${product.contract}, which is not in dataContracts`,
      );
    }
  }
  /** The entries of `field`, each an object naming itself by `key`. */
  const named = <K extends string>(field: string, key: K) =>
    list(raw, field).map((entry, i) => {
      if (!isRecord(entry)) throw new SeedError(`${field}[${i}] must be an object`);
      requireString(entry, key, `${field}[${i}]`);
      return entry as Record<K, string>;
    });
  const teams = named('teams', 'name');
  const testCases = named('testCases', 'fullyQualifiedName');
  const rules = raw.dataAssetRules === undefined ? undefined : named('dataAssetRules', 'name');
  rules?.forEach((rule: Record<string, unknown>, i) => {
    requireString(rule, 'rule', `dataAssetRules[${i}]`);
    if (typeof rule.enabled !== 'boolean')
      throw new SeedError(`dataAssetRules[${i}].enabled must be true or false`);
  });
  const properties = named('customProperties', 'name');
  const fqns = new Set(assets.map((asset) => asset.fullyQualifiedName));
  const lineage = list(raw, 'lineage').map((edge, i) => {
    const where = `lineage[${i}]`;
    if (!isRecord(edge)) throw new SeedError(`${where} must be an object with from and to`);
    for (const end of ['from', 'to']) {
      const fqn = requireString(edge, end, where);
      if (!fqns.has(fqn)) throw new SeedError(`${where}.${end} ${fqn} is not an asset of the seed`);
    }
    return { from: edge.from as string, to: edge.to as string };
  });
  return {
    users,
    assets,
    dataProducts,
    dataContracts,
    ...(properties.length > 0 ? { customProperties: properties } : {}),
    ...(lineage.length > 0 ? { lineage } : {}),
    ...(teams.length > 0 ? { teams } : {}),
    ...(testCases.length > 0 ? { testCases } : {}),
    ...(rules === undefined
      ? {}
      : { dataAssetRules: rules as NonNullable<Seed['dataAssetRules']> }),
  };
}

/** The UUID a data product the seed gives none has: the same for the same name, run after run. */
function productId(name: string): string {
  const hex = createHash('sha256').update(`dataProduct:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
