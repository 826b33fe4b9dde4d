// Data contracts in the sandbox: by id and name, effective contracts with data-product
// inheritance, create and PATCH (RFC 6902 applied with a real JSON-patch library), as the
// specification and, under the openmetadata profile, a real OpenMetadata server answer them.
import { randomBytes, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import jsonpatch from 'fast-json-patch';
import { requirePermission } from './auth.js';
import { COMPUTED } from './change-description.js';
import { nextVersionOf } from './versioning.js';
import { ApiError, compareText, parseFields, queryInteger, type Json } from './http.js';
import type { Cursors } from './cursors.js';
import {
  checkReviewerTypes,
  withoutEmptyRelationships,
  withRelationships,
  type SandboxProfile,
} from './openmetadata.js';
import { checkContract, type CheckingContext } from './contract-checks.js';
import { effectiveContract, entityReference } from './effective-contracts.js';
import { contractValidation } from './create-validation.js';
import type { OpenMetadataRelease } from './release.js';
import type { Directory } from './directory.js';
import { stringify } from 'lossless-json';
import { javaEquals } from './java-json.js';
import { checkOperations, checkSource, valueAt } from './patch-operations.js';
import type { ContractResource, SeedUser } from './seed.js';
import type { Store } from './store.js';

const OPTIONAL_CONTRACT_FIELDS = ['owners', 'reviewers', 'extension'] as const;
/** Fields PATCH can never change: restored silently, as the real server does. */
const RESTORED_ON_PATCH = [
  'id',
  'name',
  'fullyQualifiedName',
  'createdAt',
  'createdBy',
  'version',
  'updatedAt',
  'updatedBy',
  'changeDescription',
  'href',
  'inherited',
  'latestResult',
];

function contractView(
  contract: ContractResource,
  fields: ReadonlySet<string>,
  profile: SandboxProfile,
): Json {
  const view: Json = profile === 'openmetadata' ? withRelationships(contract) : { ...contract };
  for (const field of OPTIONAL_CONTRACT_FIELDS) if (!fields.has(field)) delete view[field];
  return view;
}

/** A contract with every field a read may ask for: how its version history shows it. */
export function fullView(contract: ContractResource, profile: SandboxProfile): Json {
  return contractView(contract, new Set(OPTIONAL_CONTRACT_FIELDS), profile);
}

function includeFilter(query: URLSearchParams): (contract: ContractResource) => boolean {
  const include = query.get('include') ?? 'non-deleted';
  if (include === 'all') return () => true;
  if (include === 'deleted') return (c) => c.deleted === true;
  if (include === 'non-deleted') return (c) => c.deleted !== true;
  throw new ApiError(
    400,
    `query param include must be one of [all, deleted, non-deleted], got '${include}'`,
  );
}

function stripComputed(contract: Json): Json {
  const copy = { ...contract };
  for (const field of COMPUTED) delete copy[field];
  return copy;
}

export class Contracts {
  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    private readonly profile: SandboxProfile,
    /** The entities references may name (openmetadata); any name resolves without one. */
    private readonly directory?: Directory,
    /** The OpenMetadata release played (openmetadata): how it weighs If-Match. */
    private readonly release?: OpenMetadataRelease,
  ) {}

  /** What a stored contract is checked against here. */
  private checking(): CheckingContext {
    return {
      store: this.store,
      profile: this.profile,
      ...(this.directory === undefined ? {} : { directory: this.directory }),
      ...(this.release === undefined ? {} : { release: this.release }),
    };
  }

  // 4.1 / 4.2
  getContract(
    user: SeedUser,
    lookup: { id: string } | { fqn: string },
    query: URLSearchParams,
  ): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    const fields = parseFields(query, new Set(OPTIONAL_CONTRACT_FIELDS));
    const visible = includeFilter(query);
    const contract =
      'id' in lookup ? this.store.contracts.get(lookup.id) : this.store.contractByFqn(lookup.fqn);
    if (contract === undefined || !visible(contract)) {
      throw new ApiError(
        404,
        `dataContract instance for ${'id' in lookup ? lookup.id : lookup.fqn} not found`,
      );
    }
    return contractView(contract, fields, this.profile);
  }

  // 4.3
  getEffectiveContract(user: SeedUser, query: URLSearchParams): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    const fields = parseFields(query, undefined);
    return contractView(effectiveContract(this.store, this.profile, query), fields, this.profile);
  }

  /**
   * `GET /v1/dataContracts` (the real server's list; the specification shows none): every contract
   * the query's `include` admits, sorted by name and id, a page at a time (4.6's cursors), each
   * with the fields asked for.
   */
  listContracts(user: SeedUser, query: URLSearchParams, cursors: Cursors): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    // OpenMetadata's list takes 0 to 1,000,000 (DataContractResource's @Min(0) @Max(1000000));
    // the specification's list endpoints at most 1000.
    const limit =
      this.profile === 'openmetadata'
        ? queryInteger(query, 'limit', 10, 0, 1_000_000)
        : queryInteger(query, 'limit', 10, 1, 1000);
    const fields = parseFields(query, new Set(OPTIONAL_CONTRACT_FIELDS));
    const visible = includeFilter(query);
    const rows = [...this.store.contracts.values()]
      .filter(visible)
      .sort((a, b) => compareText(a.name, b.name) || compareText(a.id, b.id));
    const { page, paging } = cursors.page(
      rows,
      (a, b) => compareText(a.name, b.name) || compareText(a.id, b.id),
      limit,
      query,
    );
    return { data: page.map((contract) => contractView(contract, fields, this.profile)), paging };
  }

  /**
   * `POST /v1/dataContracts` (the real server's create; the specification does not show one):
   * `name` and `entity {id, type}` required; one contract per asset; named after its asset.
   */
  createContract(user: SeedUser, contentType: string | undefined, body: () => unknown): Json {
    const contract = this.newContract(user, contentType, body, false);
    this.store.putContract(contract as ContractResource);
    return contract;
  }

  /**
   * `POST /v1/dataContracts/validate`: the server's dry run of a create body, answered with its
   * ContractValidation (`validateContractWithoutThrowing`): the create's own checks, nothing
   * stored. A body that is no create request at all is refused as the create refuses it.
   */
  validateCreate(user: SeedUser, contentType: string | undefined, body: () => unknown): Json {
    return contractValidation(() => this.newContract(user, contentType, body, true), body);
  }

  /** The entity a create names: an asset, or (by id) a data product. */
  private createdOn(reference: { id: string; type: string }): Json | undefined {
    if (reference.type === 'dataProduct') {
      const product = [...this.store.dataProducts.values()].find((p) => p.id === reference.id);
      return product === undefined
        ? undefined
        : {
            id: reference.id,
            type: 'dataProduct',
            name: product.name,
            fullyQualifiedName: product.name,
          };
    }
    const asset = this.store.assets.get(reference.id);
    return asset === undefined || asset.deleted === true || asset.entityType !== reference.type
      ? undefined
      : entityReference(asset);
  }

  /** The contract a create body makes, checked as the create checks it (`dryRun`: not its uniqueness). */
  private newContract(
    user: SeedUser,
    contentType: string | undefined,
    body: () => unknown,
    dryRun: boolean,
  ): Json {
    requirePermission(user, 'EditDataContract', 'Create');
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json')
      throw new ApiError(
        415,
        `POST requires Content-Type application/json, got '${contentType ?? ''}'`,
      );
    const request = body();
    if (request === null || typeof request !== 'object' || Array.isArray(request))
      throw new ApiError(400, 'the body must be a CreateDataContract object');
    const { name, entity, ...fields } = request as Json;
    if (typeof name !== 'string' || name === '') throw new ApiError(400, 'name must not be null');
    const reference = entity as
      { id?: unknown; type?: unknown; name?: unknown; fullyQualifiedName?: unknown } | undefined;
    if (typeof reference?.id !== 'string' || typeof reference.type !== 'string')
      throw new ApiError(400, 'entity must be a reference with id and type');
    for (const field of Object.keys(fields))
      if (RESTORED_ON_PATCH.includes(field) || field === 'deleted')
        throw new ApiError(400, `${field} cannot be set when creating a data contract`);
    const target = this.createdOn({ id: reference.id, type: reference.type });
    if (target === undefined)
      throw new ApiError(404, `${reference.type} instance for ${reference.id} not found`);
    // 2.0 refuses a reference whose name or FQN names another entity than its id.
    if (
      this.release?.has('createEntityAgrees') === true &&
      (['name', 'fullyQualifiedName'] as const).some(
        (key) => reference[key] !== undefined && reference[key] !== target[key],
      )
    )
      throw new ApiError(
        400,
        `entity ${String(reference.fullyQualifiedName ?? reference.name)} does not match the ${reference.type} with id ${reference.id} (${String(target.fullyQualifiedName)})`,
      );
    const existing =
      reference.type === 'dataProduct'
        ? [...this.store.contracts.values()].find(
            (c) =>
              c.deleted !== true &&
              c.entity.type === 'dataProduct' &&
              c.entity.fullyQualifiedName === target.fullyQualifiedName,
          )
        : this.store.contractForAsset(this.store.assets.get(reference.id)!);
    if (!dryRun && existing !== undefined)
      throw new ApiError(
        400,
        `A data contract already exists for entity '${reference.type}' with ID ${reference.id}`,
      );
    const now = this.clock();
    const contract: Json = {
      ...structuredClone(fields),
      id: randomUUID(),
      name,
      fullyQualifiedName: `${String(target.fullyQualifiedName)}.dataContract_${name}`,
      entity: target,
      entityStatus: fields.entityStatus ?? 'Draft',
      version: 0.1,
      createdAt: now,
      createdBy: user.name,
      updatedAt: now,
      updatedBy: user.name,
    };
    // The create body takes the terms of use as text; OpenMetadata stores them as {content}.
    if (this.profile === 'openmetadata' && typeof contract.termsOfUse === 'string')
      contract.termsOfUse = { content: contract.termsOfUse };
    // The name is unique among all contracts, deleted ones included (a row they keep): the real
    // server's insert breaks its unique key, which it answers with a 409.
    if (!dryRun && this.store.contractByFqn(contract.fullyQualifiedName as string) !== undefined)
      throw new ApiError(409, 'Entity already exists');
    checkContract(contract as ContractResource, contract, this.checking(), true);
    return contract;
  }

  // 4.4
  patchContract(
    user: SeedUser,
    id: string,
    contentType: string | undefined,
    body: () => unknown,
    ifMatch?: string,
  ): Json {
    requirePermission(user, 'EditDataContract', 'EditAll');
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json-patch+json') {
      throw new ApiError(
        415,
        `PATCH requires Content-Type application/json-patch+json, got '${contentType ?? ''}'`,
      );
    }
    const current = this.store.contracts.get(id);
    if (current === undefined || current.deleted === true)
      throw new ApiError(404, `dataContract instance for ${id} not found`);
    if (user.denyEdit?.includes(current.fullyQualifiedName) === true) {
      throw new ApiError(
        403,
        `Principal: CatalogPrincipal{name='${user.name}'} operations [EditAll] not allowed on ${current.fullyQualifiedName}`,
      );
    }
    if (ifMatch !== undefined) this.release?.checkIfMatch(ifMatch, current);
    const operations = checkOperations(body());
    const effective = operations.filter((op) => !/(^|\/)href$/.test(op.path));
    for (const [index, op] of effective.entries()) {
      if (op.path === '/deleted' || op.path.startsWith('/deleted/')) {
        throw new ApiError(
          400,
          `operation ${index} (${op.op} ${op.path}): deleted cannot be changed with PATCH`,
        );
      }
    }
    // One operation at a time on a copy, so a failure names its own index (fast-json-patch's
    // validator reports 0 for every operation) and nothing is kept unless all apply.
    // OpenMetadata patches the contract as it reads it, relationship lists and all.
    let patched = structuredClone<Json>(
      this.profile === 'openmetadata' ? withRelationships(current) : current,
    );
    for (const [index, op] of effective.entries()) {
      checkSource(patched, op, index);
      if (this.profile === 'openmetadata' && op.op === 'test') {
        // JSON-P's test: numbers compared as BigDecimals (the stored version 1.0 is not 1).
        const stored = valueAt(patched, op.path);
        // A failed test raises JSON-P's JsonException, which no mapper of OpenMetadata's takes:
        // a 500 on every release (CatalogGenericExceptionMapper).
        if (stored === undefined || !javaEquals(op.value, stored.value, op.path))
          throw new ApiError(
            500,
            this.release?.has('genericTestFailureText') === true
              ? `There was an error processing your request. It has been logged (ID ${randomBytes(8).toString('hex')}).`
              : `javax.json.JsonException: The JSON Patch operation 'test' failed for path '${op.path}' and value '${stringify(op.value) ?? ''}'`,
          );
        continue;
      }
      try {
        patched = jsonpatch.applyOperation(patched, op, true, true, true, index).newDocument;
      } catch (error) {
        const message = (error as Error).message.split('\n')[0]!;
        throw new ApiError(
          400,
          `operation ${index} (${op.op} ${op.path}) cannot be applied: ${message}`,
        );
      }
    }
    if (patched === null || typeof patched !== 'object' || Array.isArray(patched))
      throw new ApiError(400, 'the patch must leave a data contract object');
    for (const field of RESTORED_ON_PATCH) {
      if (current[field] === undefined) delete patched[field];
      else patched[field] = current[field];
    }
    // Relationship lists with nothing in them are no lists (whatever the seed wrote).
    const stored = (c: Json) =>
      this.profile === 'openmetadata' ? withoutEmptyRelationships(c) : c;
    patched = stored(patched);
    // 2.0.0 drops an ODCS import's passthrough on any other update (fixed in 2.0.1).
    if (this.release?.has('stripsOdcsPassthrough') === true) delete patched.odcsElementExtensions;
    checkContract(current, patched, this.checking());
    // Checked by OpenMetadata's updater, on every PATCH; a create does not check it.
    if (this.profile === 'openmetadata') checkReviewerTypes(patched);
    const changed = !isDeepStrictEqual(stripComputed(stored(current)), stripComputed(patched));
    // Answered as OpenMetadata answers a PATCH: with its relationship lists.
    const shown = (c: Json) => (this.profile === 'openmetadata' ? withRelationships(c) : c);
    if (!changed) {
      return shown({
        ...current,
        changeDescription: {
          fieldsAdded: [],
          fieldsUpdated: [],
          fieldsDeleted: [],
          previousVersion: current.version,
        },
      });
    }
    const next = nextVersionOf(current, patched, {
      user: user.name,
      now: this.clock(),
      profile: this.profile,
      store: this.store,
      optimisticLocking: ifMatch !== undefined,
      genericUpdater:
        ifMatch !== undefined && this.release?.has('ifMatchDropsContractChanges') === true,
    });
    if (next.stored) this.store.putContract(next.contract);
    return shown(next.answer);
  }
}
