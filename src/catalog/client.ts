// The only code that speaks HTTP to the catalog: undici with a keep-alive pool (in a thread of its
// own, connections.ts), timeouts, bounded concurrency, retries for reads, typed errors, and a
// token that never leaves its origin.
import { CatalogError, NetworkError } from '../errors.js';
import { networkError } from './network-error.js';
import { USER_AGENT } from '../version.js';
import type { Operation } from '../diff/operation.js';
import { parseAnswer, retryAfterMs, type RawResponse } from './answer.js';
import {
  customPropertiesOf,
  refusesExtension,
  rulesOf,
  type EntityRule,
} from './openmetadata-answers.js';
import { RESPONSE_ETAG } from './etag.js';
import { patchText } from './patch-text.js';
import { Connections } from './connections.js';
import type { ReferenceType } from '../profile/references.js';

import {
  ANY_ANSWER,
  LIST_ANSWER,
  CONTRACT_ANSWER,
  ENTITY_ANSWER,
  PAGE_ANSWER,
  SEARCH_ANSWER,
  type AnswerShape,
  type CatalogClientOptions,
  type CustomProperty,
  type CreateValidation,
  type LiveContract,
  type Page,
  type PatchedContract,
  type SearchResponse,
} from './types.js';
import { preflightProblem } from './preflight.js';
import { followRedirects } from './redirects.js';
import { checkedToken, tokenForms } from './token.js';
import { catalogUrlText, normalizeCatalogUrl, pathSegment } from './url.js';

export type {
  CatalogClientOptions,
  CreateValidation,
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

/** Where OpenMetadata answers an entity of each kind by its name. */
const REFERENCE_ROUTES: Readonly<Record<ReferenceType, string>> = {
  user: '/users/name',
  team: '/teams/name',
  testCase: '/dataQuality/testCases/name',
};

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class CatalogClient {
  readonly baseUrl: URL;
  private readonly connections: Connections;
  private readonly prefix: string;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly token: string;
  /** The forms of the token redact removes, longest first. */
  private readonly secrets: readonly string[];
  /** The catalog refused `extension` among a contract's fields: its contracts have none. */
  private contractsWithoutExtension = false;

  constructor(options: CatalogClientOptions) {
    this.baseUrl = normalizeCatalogUrl(options.baseUrl);
    this.token = checkedToken(options.token);
    this.secrets = tokenForms(this.token);
    const concurrency = options.concurrency ?? 8;
    // The pool is the only bound on requests at once, so it must be a real one (undici reads a
    // missing or zero `connections` as "no limit").
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${concurrency}`);
    this.connections = new Connections(
      this.baseUrl.origin,
      {
        connections: concurrency,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout: options.headersTimeoutMs ?? 30_000,
        bodyTimeout: options.bodyTimeoutMs ?? 30_000,
        keepAliveTimeout: 10_000,
      },
      {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        'user-agent': USER_AGENT,
      },
    );
    this.prefix = `${this.baseUrl.pathname === '/' ? '' : this.baseUrl.pathname}/v1`;
    this.retries = options.retries ?? 4;
    this.retryBaseMs = options.retryBaseMs ?? 200;
    this.retryMaxMs = options.retryMaxMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /**
   * Removes the token from any text that might echo a request (server messages, errors): as it
   * is, percent-encoded, and each long part of it (a JWT's payload or signature quoted alone).
   */
  redact(text: string): string {
    let redacted = text;
    for (const secret of this.secrets) redacted = redacted.split(secret).join('***');
    return redacted;
  }

  /** Closes the connections; `abandon` drops the reads still queued (see Connections.close). */
  async close(abandon = false): Promise<void> {
    await this.connections.close(abandon);
  }

  /**
   * One cheap read (`GET /v1/tables?limit=1`) before a command's real work, so that a wrong URL,
   * an unreachable catalog or a bad token is one clear error instead of one per contract.
   */
  async preflight(): Promise<void> {
    try {
      await this.getJson('/tables', { limit: '1' }, PAGE_ANSWER);
    } catch (error) {
      const problem = preflightProblem(error, catalogUrlText(this.baseUrl), this.prefix);
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
      const answer = await this.getJson<{ version?: unknown }>('/system/version', {}, ANY_ANSWER);
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
    const answer = await this.getJson<unknown>(
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
    const answer = await this.getJson<unknown>(
      `/metadata/types/name/${pathSegment(entityType)}`,
      { fields: 'customProperties' },
      ENTITY_ANSWER,
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
    const answer = await this.getJson<{ id: string; teamType?: unknown }>(
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
      return await this.getJson<LiveContract>(
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
    return this.getJson<LiveContract>(
      '/dataContracts/entity',
      {
        entityId,
        entityType,
        ...(fields.length > 0 ? { fields: fields.join(',') } : {}),
      },
      CONTRACT_ANSWER,
    );
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
    return this.getJson<SearchResponse>('/search/fieldQuery', params, SEARCH_ANSWER);
  }

  /** One page of a list endpoint; `cursor` must be a value the server returned. */
  async listPage<T>(
    path: string,
    params: Record<string, string>,
    cursor?: { after: string } | { before: string },
  ): Promise<Page<T>> {
    const page = await this.getJson<Page<T>>(path, { ...params, ...(cursor ?? {}) }, PAGE_ANSWER);
    page.paging ??= {};
    return page;
  }

  /** Every item of a list endpoint, page by page, passing back only the cursors the server gave. */
  async *listAll<T>(
    path: string,
    params: Record<string, string>,
    onPage?: (page: Page<T>) => void,
  ): AsyncGenerator<T> {
    let cursor: { after: string } | undefined;
    for (;;) {
      const page = await this.listPage<T>(path, params, cursor);
      onPage?.(page);
      yield* page.data;
      const after = page.paging.after;
      if (page.data.length === 0 || after === undefined || after === null || after === '') return;
      cursor = { after };
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
    const path = `/dataContracts/${pathSegment(id)}`;
    const body = patchText(operations);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send('PATCH', path, body, {
        'content-type': 'application/json-patch+json',
        // The catalog refuses the PATCH (412) if the contract is no longer the one read.
        ...(options.ifMatch === undefined ? {} : { 'if-match': options.ifMatch }),
      });
      if (response.status !== 429 || attempt >= this.retries)
        return this.answer('PATCH', path, response, CONTRACT_ANSWER) as PatchedContract;
      await this.sleep(this.backoffMs(attempt, response));
    }
  }

  /**
   * `POST /v1/dataContracts` with `application/json`: creates a contract. Like a PATCH, sent
   * again only after a 429; after a lost answer the caller reads the contract by name.
   */
  async createContract(body: Record<string, unknown>): Promise<LiveContract> {
    const text = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send('POST', '/dataContracts', text, {
        'content-type': 'application/json',
      });
      if (response.status !== 429 || attempt >= this.retries)
        return this.answer('POST', '/dataContracts', response, CONTRACT_ANSWER) as LiveContract;
      await this.sleep(this.backoffMs(attempt, response));
    }
  }

  /**
   * `POST /v1/dataContracts/validate`: the server's dry run of a create body (OpenMetadata's
   * ContractValidation: `valid`, `schemaValidation`, `entityErrors`, `constraintErrors`); null
   * when the catalog does not serve the route (404, or 405: a release without it takes the path
   * for `/{id}`, which has no POST). Nothing is created; it is sent again like a read.
   */
  async validateCreate(body: Record<string, unknown>): Promise<CreateValidation | null> {
    const text = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send('POST', '/dataContracts/validate', text, {
        'content-type': 'application/json',
      });
      if ([404, 405].includes(response.status)) return null;
      if (!RETRYABLE_STATUS.has(response.status) || attempt >= this.retries)
        return this.answer(
          'POST',
          '/dataContracts/validate',
          response,
          ANY_ANSWER,
        ) as CreateValidation;
      await this.sleep(this.backoffMs(attempt, response));
    }
  }

  /** How long to wait before retry `attempt`: exponential with full jitter, or what the catalog asks. */
  private backoffMs(attempt: number, response: RawResponse | undefined): number {
    const backoff = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** attempt) * this.random();
    const asked =
      response === undefined ? undefined : retryAfterMs(response.headers['retry-after']);
    return Math.min(this.retryMaxMs, Math.max(backoff, asked ?? 0));
  }

  private async getJson<T>(
    path: string,
    params: Record<string, string>,
    shape: AnswerShape,
    keepEtag = false,
  ): Promise<T> {
    const query = new URLSearchParams(params).toString();
    const target = query === '' ? path : `${path}?${query}`;
    let attempt = 0;
    for (;;) {
      let response: RawResponse | undefined;
      let failure: NetworkError | undefined;
      try {
        response = await this.send('GET', target, undefined, {});
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        failure = error;
      }
      const retryable =
        failure !== undefined || (response !== undefined && RETRYABLE_STATUS.has(response.status));
      if (!retryable || attempt >= this.retries) {
        if (failure !== undefined) throw failure;
        const value = this.answer('GET', target, response!, shape) as T;
        // A contract keeps the ETag it was read with (a symbol: never in its JSON).
        const etag = response!.headers.etag;
        if (keepEtag && typeof etag === 'string' && etag !== '' && value !== null)
          Object.defineProperty(value, RESPONSE_ETAG, { value: etag });
        return value;
      }
      await this.sleep(this.backoffMs(attempt, response));
      attempt += 1;
    }
  }

  /** The answer to `method target` read as `shape`, its errors naming `METHOD /v1/…` (no query). */
  private answer(method: string, target: string, response: RawResponse, shape: AnswerShape) {
    const request = `${method} ${this.prefix}${target.split('?')[0]!}`;
    return parseAnswer(response, request, shape, (text) => this.redact(text));
  }

  private async send(
    method: string,
    target: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<RawResponse> {
    return followRedirects(method, `${this.prefix}${target}`, this.baseUrl, async (path) => {
      try {
        return await this.connections.send({
          path,
          method: method,
          headers,
          ...(body === undefined ? {} : { body }),
        });
      } catch (error) {
        throw networkError(method, path, error, this.baseUrl, (text) => this.redact(text));
      }
    });
  }
}
