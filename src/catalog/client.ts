// The catalog's resources as the tool reads and writes them: data contracts by name and id (and
// the one in force on an asset), create, its dry run and PATCH, the field query search, paged
// lists, and OpenMetadata's version, rules, custom properties and named entities. How each request
// travels (pool, retries, errors, the token) is transport.ts's.
import { CatalogError } from '../model/errors.js';
import type { ContractHistory } from '../model/history.js';
import type { Operation } from '../model/operation.js';
import {
  customPropertiesOf,
  refusesExtension,
  rulesOf,
  type EntityRule,
} from './openmetadata-answers.js';
import { readContractHistory } from './contract-history.js';
import { readRun, startRun } from './contract-runs.js';
import { patchText } from './patch-text.js';
import { CatalogTransport, RETRYABLE_STATUS } from './transport.js';
import type { ReferenceType } from '../profile/references.js';

import {
  CONTRACT_ANSWER,
  CREATE_VALIDATION_ANSWER,
  ENTITY_ANSWER,
  LINEAGE_ANSWER,
  LIST_ANSWER,
  OWNED_ANSWER,
  PAGE_ANSWER,
  PATCHED_ANSWER,
  SEARCH_ANSWER,
  TYPE_ANSWER,
  ANY_ANSWER,
  pageAnswer,
} from './shapes.js';
import type {
  CatalogClientOptions,
  ContractRun,
  EntityLineage,
  CustomProperty,
  CreateValidation,
  LiveContract,
  Page,
  PatchedContract,
  SearchResponse,
} from './types.js';
import { ListCursors, MAX_LIST_PAGES } from './paging.js';
import { preflightProblem } from './preflight.js';
import { catalogUrlText, pathSegment } from './url.js';

export type {
  CatalogClientOptions,
  ContractRun,
  CreateValidation,
  EntityLineage,
  CustomProperty,
  ChangeDescription,
  FieldChange,
  LiveContract,
  Page,
  PatchedContract,
  SearchHit,
  SearchResponse,
} from './types.js';
export { catalogUrlText, normalizeCatalogUrl, pathSegment } from './url.js';
export { retryAfterMs } from './answer.js';
export { ListCursors, MAX_LIST_PAGES } from './paging.js';

/** Where OpenMetadata answers an entity of each kind by its name. */
const REFERENCE_ROUTES: Readonly<Record<ReferenceType, string>> = {
  user: '/users/name',
  team: '/teams/name',
  testCase: '/dataQuality/testCases/name',
};

export class CatalogClient {
  readonly baseUrl: URL;
  protected readonly http: CatalogTransport;
  /** The catalog refused `extension` among a contract's fields: its contracts have none. */
  private contractsWithoutExtension = false;
  private readonly maxListPages: number;

  constructor(options: CatalogClientOptions) {
    this.http = new CatalogTransport(options);
    this.baseUrl = this.http.baseUrl;
    this.maxListPages = options.maxListPages ?? MAX_LIST_PAGES;
  }

  /** Whether the catalog refused `extension` among a contract's fields (so far): none is kept. */
  get refusedExtension(): boolean {
    return this.contractsWithoutExtension;
  }

  /** `text` without the token, in any of its forms (see CatalogTransport.redact). */
  redact(text: string): string {
    return this.http.redact(text);
  }

  /** Closes the connections; `abandon` drops the reads still queued (see Connections.close). */
  async close(abandon = false): Promise<void> {
    await this.http.close(abandon);
  }

  /**
   * One cheap read (`GET /v1/tables?limit=1`) before a command's real work, so that a wrong URL,
   * an unreachable catalog or a bad token is one clear error instead of one per contract.
   */
  async preflight(): Promise<void> {
    try {
      await this.http.getJson('/tables', { limit: '1' }, PAGE_ANSWER);
    } catch (error) {
      const problem = preflightProblem(error, catalogUrlText(this.baseUrl), this.http.prefix);
      // Other answers leave the real requests to report for themselves.
      if (problem !== undefined) throw problem;
    }
  }

  /**
   * `GET /v1/system/version`: the catalog's version, or null when it has no such endpoint (it
   * answers 404, or another refusal of the route: 400, 405, 501). A 401 or 403 is an error.
   */
  async systemVersion(): Promise<string | null> {
    try {
      const answer = await this.http.getJson<{ version?: unknown }>(
        '/system/version',
        {},
        ANY_ANSWER,
      );
      return typeof answer?.version === 'string' ? answer.version : null;
    } catch (error) {
      if (error instanceof CatalogError && [400, 404, 405, 501].includes(error.status)) return null;
      throw error;
    }
  }

  /**
   * OpenMetadata's data asset rules in force for `entityType`
   * (`GET /v1/system/settings/entityRulesSettings/{entityType}`: the enabled rules that apply to
   * that type), each with its `name`, JSON Logic `rule` and, when it has one, `description`.
   */
  async entityRules(entityType: string): Promise<EntityRule[]> {
    const answer = await this.http.getJson<unknown>(
      `/system/settings/entityRulesSettings/${pathSegment(entityType)}`,
      {},
      LIST_ANSWER,
    );
    return rulesOf(answer);
  }

  /**
   * The custom properties OpenMetadata defines for `entityType`
   * (`GET /v1/metadata/types/name/{entityType}?fields=customProperties`): each one's name, type
   * (`string`, `integer`, `enum`, ...) and config (an enum's `{values, multiSelect}`). An entity's
   * `extension` may hold only those ("Unknown custom field", a 400, for any other).
   */
  async customProperties(entityType: string): Promise<CustomProperty[]> {
    const answer = await this.http.getJson<unknown>(
      `/metadata/types/name/${pathSegment(entityType)}`,
      { fields: 'customProperties' },
      TYPE_ANSWER,
    );
    return customPropertiesOf(answer);
  }

  /**
   * `GET /v1/dataContracts/name/{fqn}`; the FQN is one encoded path segment. `include` asks for
   * deleted contracts too (`all`) or only them (`deleted`); the catalog's default is neither.
   */
  getContractByName(
    fqn: string,
    fields: readonly string[] = [],
    options: { include?: 'all' | 'deleted' } = {},
  ): Promise<LiveContract> {
    return this.readContract(
      `/dataContracts/name/${pathSegment(fqn)}`,
      fields,
      options.include === undefined ? {} : { include: options.include },
    );
  }

  /**
   * The entity a contract's reference names (OpenMetadata: `GET /v1/users/name/{name}`,
   * `/v1/teams/name/{name}`, `/v1/dataQuality/testCases/name/{fqn}`): its id, and a team's type
   * (only a team of type Group may own anything); a NotFoundError when the catalog has none of
   * that name.
   */
  async referenceEntity(
    type: ReferenceType,
    fullyQualifiedName: string,
  ): Promise<{ id: string; teamType?: string }> {
    const answer = await this.http.getJson<{ id: string; teamType?: unknown }>(
      `${REFERENCE_ROUTES[type]}/${pathSegment(fullyQualifiedName)}`,
      {},
      ENTITY_ANSWER,
    );
    return typeof answer.teamType === 'string'
      ? { id: answer.id, teamType: answer.teamType }
      : { id: answer.id };
  }

  getContractById(id: string, fields: readonly string[] = []): Promise<LiveContract> {
    return this.readContract(`/dataContracts/${pathSegment(id)}`, fields, {});
  }

  /**
   * A contract read with `fields`. A catalog whose data contracts have no custom properties
   * refuses `extension` among them (OpenMetadata: 400 "Invalid field name extension", as it
   * answers for any entity without that field): the contract is read again without it, and so is
   * every contract after it; the contract then has no `extension`, as the catalog keeps none.
   */
  private async readContract(
    path: string,
    fields: readonly string[],
    params: Record<string, string>,
  ): Promise<LiveContract> {
    const asked = this.contractsWithoutExtension
      ? fields.filter((field) => field !== 'extension')
      : fields;
    try {
      return await this.http.getJson<LiveContract>(
        path,
        { ...(asked.length > 0 ? { fields: asked.join(',') } : {}), ...params },
        CONTRACT_ANSWER,
        true,
      );
    } catch (error) {
      if (!asked.includes('extension') || !refusesExtension(error)) throw error;
      this.contractsWithoutExtension = true;
      return this.readContract(path, fields, params);
    }
  }

  getEffectiveContract(
    entityId: string,
    entityType: string,
    fields: readonly string[] = [],
  ): Promise<LiveContract> {
    return this.readContract('/dataContracts/entity', fields, { entityId, entityType });
  }

  fieldQuery(query: {
    fieldName: string;
    fieldValue: string;
    index: string;
    from?: number;
    size?: number;
  }): Promise<SearchResponse> {
    const params: Record<string, string> = {
      fieldName: query.fieldName,
      fieldValue: query.fieldValue,
      index: query.index,
    };
    if (query.from !== undefined) params.from = String(query.from);
    if (query.size !== undefined) params.size = String(query.size);
    return this.http.getJson<SearchResponse>('/search/fieldQuery', params, SEARCH_ANSWER);
  }

  /** One page of a list endpoint; `cursor` must be a value the server returned. */
  async listPage<T>(
    path: string,
    params: Record<string, string>,
    cursor?: { after: string } | { before: string },
  ): Promise<Page<T>> {
    const page = await this.http.getJson<Page<T>>(
      path,
      { ...params, ...(cursor ?? {}) },
      pageAnswer(path),
    );
    page.paging ??= {};
    return page;
  }

  /**
   * Every item of a list endpoint, page by page, passing back only the cursors the server gave; a
   * cursor given twice, or a list past MAX_LIST_PAGES, is a CatalogError (see ListCursors).
   */
  async *listAll<T>(
    path: string,
    params: Record<string, string>,
    onPage?: (page: Page<T>) => void,
  ): AsyncGenerator<T> {
    const cursors = new ListCursors(`GET ${this.http.prefix}${path}`, this.maxListPages);
    let cursor: { after: string } | undefined;
    for (;;) {
      const page = await this.listPage<T>(path, params, cursor);
      onPage?.(page);
      yield* page.data;
      cursor = cursors.next(page);
      if (cursor === undefined) return;
    }
  }

  /**
   * `PATCH /v1/dataContracts/{id}` with `application/json-patch+json`, and `If-Match` with the
   * ETag the contract was read with, when the catalog sent one. Only a 429 is sent again
   * (the catalog did not take the request), after the Retry-After it asks for, bounded: after a
   * timeout or a 5xx the caller re-reads the contract and decides again.
   */
  async patchContract(
    id: string,
    operations: readonly Operation[],
    options: { ifMatch?: string } = {},
  ): Promise<PatchedContract> {
    return (await this.http.write(
      'PATCH',
      `/dataContracts/${pathSegment(id)}`,
      patchText(operations),
      'application/json-patch+json',
      PATCHED_ANSWER,
      // The catalog refuses the PATCH (412) if the contract is no longer the one read.
      options.ifMatch === undefined ? {} : { headers: { 'if-match': options.ifMatch } },
    )) as PatchedContract;
  }

  /**
   * `POST /v1/dataContracts` with `application/json`: creates a contract. Like a PATCH, sent
   * again only after a 429; after a lost answer the caller reads the contract by name.
   */
  async createContract(body: Record<string, unknown>): Promise<LiveContract> {
    return (await this.http.write(
      'POST',
      '/dataContracts',
      JSON.stringify(body),
      'application/json',
      CONTRACT_ANSWER,
    )) as LiveContract;
  }

  /**
   * `DELETE /v1/dataContracts/{id}`: soft (OpenMetadata keeps it, `deleted: true`, and `PUT
   * /v1/dataContracts/restore` brings it back), or hard with `hard` (gone). Like a PATCH, sent
   * again only after a 429; after a lost answer the caller reads the contract again.
   */
  async deleteContract(id: string, hard: boolean): Promise<LiveContract> {
    return (await this.http.write(
      'DELETE',
      `/dataContracts/${pathSegment(id)}?hardDelete=${String(hard)}`,
      '',
      'application/json',
      CONTRACT_ANSWER,
    )) as LiveContract;
  }

  /**
   * `PUT /v1/dataContracts/restore {"id": …}`: a soft-deleted contract brought back (OpenMetadata;
   * the spec shows no restore). Null when the catalog does not serve the route (404, 405, 501).
   * Like a PATCH, sent again only after a 429; after a lost answer or a 5xx the caller reads the
   * contract again (OpenMetadata answers 500 for an id that is not a deleted contract's).
   */
  async restoreContract(id: string): Promise<LiveContract | null> {
    return (await this.http.write(
      'PUT',
      '/dataContracts/restore',
      JSON.stringify({ id }),
      'application/json',
      CONTRACT_ANSWER,
      { unserved: [404, 405, 501] },
    )) as LiveContract | null;
  }

  /**
   * `GET /v1/lineage/{entityType}/name/{fqn}?upstreamDepth=0&downstreamDepth=N`: the assets
   * downstream of one, N levels deep (OpenMetadata's lineage; the spec shows none).
   */
  lineage(entityType: string, fullyQualifiedName: string, depth: number): Promise<EntityLineage> {
    return this.http.getJson<EntityLineage>(
      `/lineage/${pathSegment(entityType)}/name/${pathSegment(fullyQualifiedName)}`,
      { upstreamDepth: '0', downstreamDepth: String(depth) },
      LINEAGE_ANSWER,
    );
  }

  /** `GET /v1/{collection}/name/{fqn}?fields=owners`: an asset's owners, as references. */
  async assetOwners(
    collection: string,
    fullyQualifiedName: string,
  ): Promise<{ type?: unknown; name?: unknown }[]> {
    const answer = await this.http.getJson<{ owners?: unknown }>(
      `/${collection}/name/${pathSegment(fullyQualifiedName)}`,
      { fields: 'owners' },
      OWNED_ANSWER,
    );
    return Array.isArray(answer.owners)
      ? (answer.owners as { type?: unknown; name?: unknown }[])
      : [];
  }

  /** `POST /v1/dataContracts/{id}/validate`: runs the contract on its asset (contract-runs.ts). */
  runContract(id: string): Promise<ContractRun> {
    return startRun(this.http, id);
  }

  /** `GET /v1/dataContracts/{id}/versions`: who changed the contract (contract-history.ts). */
  contractHistory(id: string): Promise<ContractHistory> {
    return readContractHistory(this.http, id);
  }

  /** `GET /v1/dataContracts/{id}/results/{resultId}`: a run's result as it is now. */
  contractRun(id: string, resultId: string): Promise<ContractRun> {
    return readRun(this.http, id, resultId);
  }

  /**
   * `POST /v1/dataContracts/validate`: the server's dry run of a create body (OpenMetadata's
   * ContractValidation: `valid`, `schemaValidation`, `entityErrors`, `constraintErrors`); null
   * when the catalog does not serve the route (404, or 405: a release without it takes the path
   * for `/{id}`, which has no POST). Nothing is created; it is sent again like a read.
   */
  async validateCreate(body: Record<string, unknown>): Promise<CreateValidation | null> {
    return (await this.http.write(
      'POST',
      '/dataContracts/validate',
      JSON.stringify(body),
      'application/json',
      CREATE_VALIDATION_ANSWER,
      { again: RETRYABLE_STATUS, unserved: [404, 405] },
    )) as CreateValidation | null;
  }
}
