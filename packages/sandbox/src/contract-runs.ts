// Running a data contract on its asset, as OpenMetadata does (`DataContractRepository
// .validateContract`; the specification shows none): `POST /v1/dataContracts/{id}/validate`
// answers a DataContractResult; `GET /{id}/results/latest` and `/{id}/results/{resultId}` read it.
//
// Deterministic per seed:
// - schema: each column of the contract's schema is looked for among its asset's columns (nested
//   ones too); one the asset lacks, or named twice, fails; a type of another family is noted.
// - semantics: each enabled rule's JSON Logic runs on the asset as the server loads it (with its
//   owners, tags, columns, description), with the operations OpenMetadata adds; one that does not
//   hold fails, with the rule's description as the reason.
// - quality: a contract with quality expectations is `Running` when answered, as the server
//   leaves it while its test suite runs, and is compiled on the next read of its result, from the
//   seed's test cases (`testCaseStatus`: Success, Failed or Aborted; one without a status has no
//   result yet and is not counted).
// The status is Failed when any part failed, else Success. The contract's `latestResult` follows,
// without a new version, except on a contract at 0.1, which moves to 0.2 (see remember).
import { randomUUID } from 'node:crypto';
import { requirePermission } from './auth.js';
import type { Directory } from './directory.js';
import { ownerReferences } from './lineage.js';
import { ApiError, type Json } from './http.js';
import { ruleHolds } from './rule-engine.js';
import { nextVersion } from './change-description.js';
import type { ContractResource, SeedAsset, SeedUser } from './seed.js';
import type { Store } from './store.js';

/** What `abortRunningValidation` adds to the result of a run a new one aborts. */
const ABORTED_BY_NEW_RUN = 'Aborted due to new validation request';

/** Column types OpenMetadata takes as one family (`areTypesCompatible`). */
const FAMILIES: readonly (readonly string[])[] = [
  ['STRING', 'VARCHAR', 'CHAR', 'TEXT', 'MEDIUMTEXT', 'NTEXT', 'CLOB'],
  ['INT', 'BIGINT', 'SMALLINT', 'TINYINT', 'BYTEINT', 'LONG'],
  ['DECIMAL', 'NUMERIC', 'NUMBER', 'DOUBLE', 'FLOAT', 'MONEY'],
  ['BOOLEAN'],
  ['DATE', 'DATETIME', 'TIMESTAMP', 'TIMESTAMPZ', 'TIME'],
  ['BINARY', 'VARBINARY', 'BLOB', 'BYTEA', 'BYTES', 'LONGBLOB', 'MEDIUMBLOB'],
  ['ARRAY', 'MAP', 'STRUCT', 'JSON'],
];

function compatible(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a === b) return true;
  return FAMILIES.some((family) => family.includes(a) && family.includes(b));
}

type Column = { name: string; dataType?: unknown; children?: unknown };

function columnsByName(columns: readonly Column[], into = new Map<string, Column>()) {
  for (const column of columns) {
    into.set(column.name, column);
    if (Array.isArray(column.children)) columnsByName(column.children as Column[], into);
  }
  return into;
}

function schemaValidation(contract: ContractResource, asset: SeedAsset | undefined): Json {
  const schema = (contract.schema ?? []) as Column[];
  const seen = new Set<string>();
  const duplicates = [
    ...new Set(schema.map((c) => c.name).filter((n) => seen.size === seen.add(n).size)),
  ];
  const columns = columnsByName(asset?.columns ?? []);
  const failed: string[] = [];
  const mismatched: string[] = [];
  for (const column of schema) {
    const found = columns.get(column.name);
    if (found === undefined) failed.push(column.name);
    else if (!compatible(column.dataType, found.dataType))
      mismatched.push(
        `${column.name}: expected ${String(found.dataType)}, got ${String(column.dataType)}`,
      );
  }
  const failedCount = failed.length + duplicates.length;
  return {
    passed: Math.max(0, schema.length - failedCount),
    failed: failedCount,
    total: schema.length,
    ...(failed.length > 0 ? { failedFields: failed } : {}),
    ...(duplicates.length > 0 ? { duplicateFields: duplicates } : {}),
    ...(mismatched.length > 0 ? { typeMismatchFields: mismatched } : {}),
  };
}

/** The asset as the server loads it for its rules (fields `*`): owners as references. */
function loadedAsset(asset: SeedAsset, directory: Directory | undefined): Json {
  return {
    ...asset,
    owners: ownerReferences(asset, directory),
    tags: asset.tags ?? [],
  };
}

function semanticsValidation(contract: ContractResource, entity: Json): Json {
  const rules = (contract.semantics ?? []) as {
    name?: unknown;
    rule?: unknown;
    description?: unknown;
    enabled?: unknown;
  }[];
  const failedRules = rules
    .filter((rule) => rule.enabled !== false && typeof rule.rule === 'string')
    .filter((rule) => !ruleHolds(rule.rule as string, entity))
    .map((rule) => ({
      ruleName: String(rule.name),
      reason: typeof rule.description === 'string' ? rule.description : '',
    }));
  return {
    passed: rules.length - failedRules.length,
    failed: failedRules.length,
    total: rules.length,
    failedRules,
  };
}

function qualityValidation(contract: ContractResource, store: Store): Json {
  const expected = new Set(
    ((contract.qualityExpectations ?? []) as { fullyQualifiedName?: unknown }[]).map((item) =>
      String(item.fullyQualifiedName),
    ),
  );
  const statuses = store.testCases
    .filter(
      (test) => expected.has(test.fullyQualifiedName) && typeof test.testCaseStatus === 'string',
    )
    .map((test) => String(test.testCaseStatus));
  const failed = statuses.filter((status) => status === 'Failed' || status === 'Aborted').length;
  return {
    passed: statuses.length - failed,
    failed,
    total: statuses.length,
    ...(statuses.length > 0
      ? { qualityScore: ((statuses.length - failed) / statuses.length) * 100 }
      : {}),
  };
}

/** The status and message a result's parts give (`compileResult`). */
function compiled(result: Json): Json {
  const failedParts = (
    [
      ['schemaValidation', 'Schema validation failed'],
      ['semanticsValidation', 'Semantics validation failed'],
      ['qualityValidation', 'Quality validation failed'],
    ] as const
  )
    .filter(([part]) => Number((result[part] as Json | undefined)?.failed ?? 0) > 0)
    .map(([, message]) => message);
  return {
    ...result,
    contractExecutionStatus: failedParts.length > 0 ? 'Failed' : 'Success',
    ...(failedParts.length > 0 ? { result: failedParts.join('; ') } : {}),
  };
}

export class ContractRuns {
  /** Each contract's results, newest last; a Running one is compiled on its next read. */
  private readonly results = new Map<string, Json[]>();

  constructor(
    private readonly store: Store,
    private readonly clock: () => number,
    private readonly directory: Directory | undefined,
  ) {}

  private contract(id: string): ContractResource {
    const contract = this.store.contracts.get(id);
    if (contract === undefined || contract.deleted === true)
      throw new ApiError(404, `dataContract instance for ${id} not found`);
    return contract;
  }

  /**
   * The contract's latestResult, as the server keeps it: through the contract's updater
   * (`recordChange("latestResult")`, `updateLatestResult`), on a copy of the contract that keeps
   * its updatedBy and updatedAt. A contract past its first version folds it into the version it
   * has; one at 0.1 folds nothing (`consolidateChanges` needs a version above 0.1): it moves to
   * 0.2, its updatedBy and updatedAt as they were, the change recorded as the updater records it.
   */
  private remember(contract: ContractResource, result: Json): void {
    const latestResult = {
      timestamp: result.timestamp,
      status: result.contractExecutionStatus,
      message: typeof result.result === 'string' ? result.result : '',
      resultId: result.id,
    };
    if (contract.version > 0.1) {
      this.store.putContract({ ...contract, latestResult });
      return;
    }
    const before = contract.latestResult;
    this.store.keepVersion(contract);
    this.store.putContract({
      ...contract,
      latestResult,
      version: nextVersion(contract.version),
      changeDescription: {
        fieldsAdded: before === undefined ? [{ name: 'latestResult', newValue: latestResult }] : [],
        fieldsUpdated:
          before === undefined
            ? []
            : [{ name: 'latestResult', oldValue: before, newValue: latestResult }],
        fieldsDeleted: [],
        previousVersion: contract.version,
      },
    });
  }

  /**
   * The contract's runs so far, a still running one aborted as `validateContract` first does
   * (`abortRunningValidation`): Aborted, "Aborted due to new validation request" added to its
   * result.
   */
  private runsAborting(id: string): Json[] {
    const list = this.results.get(id) ?? [];
    const last = list.at(-1);
    if (last?.contractExecutionStatus === 'Running')
      list[list.length - 1] = {
        ...last,
        contractExecutionStatus: 'Aborted',
        result:
          typeof last.result === 'string'
            ? `${last.result}; ${ABORTED_BY_NEW_RUN}`
            : ABORTED_BY_NEW_RUN,
      };
    this.results.set(id, list);
    return list;
  }

  /**
   * The entity a contract's rules are weighed on, as the server loads it (`Entity.getEntity` with
   * fields `*`): its asset, or its data product (with the product's owners and description).
   */
  private ruledEntity(
    entity: { id?: string; type: string; fullyQualifiedName: string },
    asset: SeedAsset | undefined,
  ): Json {
    if (entity.type === 'dataProduct') {
      const product = [...this.store.dataProducts.values()].find(
        (p) => p.id === entity.id || p.name === entity.fullyQualifiedName,
      );
      if (product === undefined) return {};
      const { contract: _contract, ...fields } = product;
      return {
        ...fields,
        fullyQualifiedName: product.name,
        owners: ownerReferences(product as unknown as SeedAsset, this.directory),
      };
    }
    return asset === undefined ? {} : loadedAsset(asset, this.directory);
  }

  /** `POST /{id}/validate`. */
  validate(user: SeedUser, id: string): Json {
    requirePermission(user, 'EditDataContract', 'EditAll');
    const contract = this.contract(id);
    const entity = contract.entity as { id?: string; type: string; fullyQualifiedName: string };
    const asset =
      (entity.id === undefined ? undefined : this.store.assets.get(entity.id)) ??
      this.store.assetByFqn(entity.type, entity.fullyQualifiedName);
    let result: Json = {
      id: randomUUID(),
      dataContractFQN: contract.fullyQualifiedName,
      timestamp: this.clock(),
      contractExecutionStatus: 'Running',
    };
    if (Array.isArray(contract.schema) && contract.schema.length > 0)
      result.schemaValidation = schemaValidation(contract, asset);
    if (Array.isArray(contract.semantics) && contract.semantics.length > 0)
      result.semanticsValidation = semanticsValidation(contract, this.ruledEntity(entity, asset));
    const quality =
      Array.isArray(contract.qualityExpectations) && contract.qualityExpectations.length > 0;
    if (!quality) result = compiled(result);
    this.runsAborting(id).push(result);
    this.remember(contract, result);
    return result;
  }

  /**
   * `PUT /{id}/results` (`createResult`): a result a runner outside the server made (the
   * ingestion framework's validation, with its SLA part), stored as sent: under its own id when it
   * has one (a run's result completed in place), else a new one; aborting nothing. The contract is
   * read without fields, so no latestResult: the result becomes the latest, whatever its time.
   */
  record(user: SeedUser, id: string, body: Json): Json {
    requirePermission(user, 'EditDataContract', 'EditAll');
    const contract = this.contract(id);
    // The body is validated first (dataContractResult.json's required fields), as @Valid does.
    const missing = ['dataContractFQN', 'timestamp', 'contractExecutionStatus'].filter(
      (field) => body[field] === undefined || body[field] === null,
    );
    if (missing.length > 0)
      throw new ApiError(
        400,
        `[${missing.map((field) => `query param ${field} must not be null`).join(', ')}]`,
      );
    const result: Json = {
      ...body,
      id: typeof body.id === 'string' ? body.id : randomUUID(),
      dataContractFQN: contract.fullyQualifiedName,
    };
    const list = this.results.get(id) ?? [];
    const at = list.findIndex((stored) => stored.id === result.id);
    if (at >= 0) list.splice(at, 1);
    list.push(result);
    this.results.set(id, list);
    this.remember(contract, result);
    return result;
  }

  /**
   * `GET /{id}/results` (`listResults`): the contract's runs newest first, between `startTs` (0)
   * and `endTs` (now), at most `limit` of them (10; 0 for all), as a ResultList.
   */
  list(user: SeedUser, id: string, query: URLSearchParams): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    this.contract(id);
    const limit = Number(query.get('limit') ?? '10');
    if (!Number.isInteger(limit))
      throw new ApiError(400, `Invalid limit: ${String(query.get('limit'))}`);
    if (limit < 0)
      throw new ApiError(400, '[query param limit must be greater than or equal to 0]');
    if (limit > 10000)
      throw new ApiError(400, '[query param limit must be less than or equal to 10000]');
    const start = query.has('startTs') ? Number(query.get('startTs')) : 0;
    const end = query.has('endTs') ? Number(query.get('endTs')) : this.clock();
    const between = (this.results.get(id) ?? [])
      .filter((r) => typeof r.timestamp === 'number' && r.timestamp >= start && r.timestamp <= end)
      .reverse()
      .sort((a, b) => (b.timestamp as number) - (a.timestamp as number));
    const data = limit > 0 ? between.slice(0, limit) : between;
    return {
      data,
      paging: {
        before: String(query.get('startTs')),
        after: String(query.get('endTs')),
        total: data.length,
      },
    };
  }

  /**
   * `GET /{id}/results/latest` and `/{id}/results/{resultId}`: both answer the contract's latest
   * run, as the server does (its `getResult` ignores the resultId asked for and reads the one the
   * contract's latestResult names); a contract without a run is a 400.
   */
  read(user: SeedUser, id: string, _resultId: string): Json {
    requirePermission(user, 'ViewDataContract', 'ViewBasic');
    const contract = this.contract(id);
    const list = this.results.get(id) ?? [];
    const index = list.length - 1;
    if (index < 0)
      throw new ApiError(400, `Data contract ${contract.fullyQualifiedName} has no results yet`);
    let result = list[index]!;
    // The test suite's run is in: the result is compiled with its quality part.
    if (result.contractExecutionStatus === 'Running') {
      result = compiled({ ...result, qualityValidation: qualityValidation(contract, this.store) });
      list[index] = result;
      if (index === list.length - 1) this.remember(contract, result);
      return { ...list[index], contractExecutionStatus: 'Running' };
    }
    return result;
  }
}
