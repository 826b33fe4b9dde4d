// The sandbox HTTP server: routes of the catalog interface under /v1 (under /api/v1 in the
// openmetadata profile, where every other GET answers the web UI's page, as a real server does),
// admin routes under /sandbox (not part of the catalog interface), a request log, and clean shutdown.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate, DEFAULT_SANDBOX_SECRET } from './auth.js';
import { Catalog } from './catalog.js';
import { ContractRuns } from './contract-runs.js';
import { openMetadataRoute } from './openmetadata-routes.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { deleteContract, restoreContract } from './contract-lifecycle.js';
import { parsePatchBody } from './java-json.js';
import { ApiError, parseJsonBody, readBody, sendError, sendJson, splitTarget } from './http.js';
import type { Seed } from './seed.js';
import { handleAdmin } from './admin.js';
import {
  LOG_TRIM_AT,
  MAX_LOGGED_REQUESTS,
  latest,
  type Reply,
  type RequestRecord,
} from './request-log.js';

export type { RequestRecord } from './request-log.js';
import { Store } from './store.js';
import { checkCustomProperties } from './custom-properties.js';
import {
  checkStoredShape,
  inNameOrder,
  openMetadataSeed,
  type SandboxProfile,
} from './openmetadata.js';
import { OpenMetadataRelease, type ReleaseVariants } from './release.js';

export interface SandboxOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The catalog's content; the built-in demo catalog when absent. */
  seed?: Seed;
  /** HS256 secret tokens are signed with. */
  secret?: string;
  /** File that keeps the state across restarts. */
  dataFile?: string;
  /** Clock for updatedAt (tests pass a fixed one). */
  clock?: () => number;
  /** Faults to inject into catalog requests (not into /sandbox admin routes). */
  faults?: FaultSpec;
  /** spec (the catalog specification, the default) or openmetadata (an OpenMetadata 1.10.0–2.0.9 server). */
  profile?: SandboxProfile;
  /** Under openmetadata: the release it plays, with its behaviour (2.0.9 by default). */
  openmetadataVersion?: string;
  /**
   * Under openmetadata: which way to play each behaviour the release leaves unconfirmed
   * (RELEASE_BEHAVIOURS' `unconfirmed`), e.g. `{ ifMatchDropsContractChanges: true }`.
   */
  openmetadataVariants?: ReleaseVariants;
  /**
   * Not a release's behaviour: answers the contracts' list (`GET /v1/dataContracts`) 404 or 405,
   * as a gateway in front of a catalog that passes only the routes it was told of may. Every
   * OpenMetadata release, and the sandbox by default, serves the list.
   */
  withoutContractList?: 404 | 405;
}

/** What OpenMetadata answers a GET outside /api: its web UI's single page, 200 text/html. */
const WEB_UI_PAGE =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>OpenMetadata</title></head>' +
  '<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>';

/** Where the catalog interface starts: /v1, or /api/v1 as on a real OpenMetadata server. */
const API_ROOT: Record<SandboxProfile, readonly string[]> = {
  spec: ['v1'],
  openmetadata: ['api', 'v1'],
};

const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  ...(headers === undefined ? {} : { headers }),
});

export interface Sandbox {
  /**
   * The catalog's base URL, e.g. http://127.0.0.1:43121 (the interface is under /v1); in the
   * openmetadata profile http://127.0.0.1:43121/api, as a real server's.
   */
  url: string;
  /** The server's root, where the /sandbox admin routes are. */
  root: string;
  store: Store;
  /** Requests handled so far, oldest first. */
  requests(): RequestRecord[];
  clearRequests(): void;
  /** The fault injector, when faults are on (to read how many were injected). */
  readonly faults: FaultInjector | null;
  /** Turns faults on with a new spec, or off with null. */
  setFaults(spec: FaultSpec | null): void;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const secret = options.secret ?? DEFAULT_SANDBOX_SECRET;
  if (
    (options.openmetadataVersion !== undefined || options.openmetadataVariants !== undefined) &&
    options.profile !== 'openmetadata'
  )
    throw new RangeError('an OpenMetadata version is only played under the openmetadata profile');
  // The release played under openmetadata (checked before anything starts).
  const release =
    options.profile === 'openmetadata'
      ? new OpenMetadataRelease(options.openmetadataVersion, options.openmetadataVariants)
      : undefined;
  const seed =
    options.seed ??
    (options.profile === 'openmetadata'
      ? openMetadataSeed((await import('./demo-catalog.js')).demoSeed())
      : (await import('./demo-catalog.js')).demoSeed());
  if (options.profile === 'openmetadata')
    for (const contract of seed.dataContracts) {
      inNameOrder(contract);
      try {
        checkStoredShape(contract);
        checkCustomProperties(contract, seed.customProperties ?? []);
      } catch (error) {
        throw new Error(
          `seed contract ${contract.fullyQualifiedName} is not one OpenMetadata stores: ${(error as Error).message}`,
        );
      }
    }
  const store = Store.open(seed, options.dataFile);
  const profile = options.profile ?? 'spec';
  const clock = options.clock ?? Date.now;
  const catalog = new Catalog(store, secret, clock, profile, release);
  const runs = new ContractRuns(store, clock, catalog.directory);
  /**
   * A contract as answered. OpenMetadata adds its href, and to a GET the ETag of that answer
   * (ETagResponseFilter is GET-only: a create or a PATCH is answered without one).
   */
  const contractReply = (
    request: IncomingMessage,
    contract: Record<string, unknown>,
    status = 200,
  ): Reply => {
    if (release === undefined) return reply(status, contract);
    const host = request.headers.host ?? 'localhost';
    const answer = {
      ...contract,
      href: `http://${host}/api/v1/dataContracts/${String(contract.id)}`,
    };
    return request.method === 'GET'
      ? reply(status, answer, { etag: release.answerEtag(answer) })
      : reply(status, answer);
  };
  const log: RequestRecord[] = [];

  let seq = 0;

  let faults = options.faults === undefined ? null : new FaultInjector(options.faults);

  const handle = async (request: IncomingMessage, record: RequestRecord): Promise<Reply> => {
    const method = request.method ?? 'GET';
    const { segments, query } = splitTarget(request.url ?? '/');
    if (segments[0] === 'sandbox') {
      // The admin routes change or show the whole state: a token of the catalog's, like the rest.
      const admin = await authenticate(request.headers.authorization, secret, store.users);
      record.user = admin.name;
      return handleAdmin(method, segments.slice(1), request, store, log);
    }
    if (!API_ROOT[profile].every((segment, i) => segments[i] === segment)) {
      if (profile === 'openmetadata' && method === 'GET')
        return { status: 200, body: undefined, html: WEB_UI_PAGE };
      throw new ApiError(404, `Route not found: ${method} ${request.url ?? '/'}`);
    }
    const route = segments.slice(API_ROOT[profile].length);
    const user = await authenticate(request.headers.authorization, secret, store.users);
    record.user = user.name;
    const onlyGet = (): void => {
      if (method !== 'GET')
        throw new ApiError(405, `Method ${method} not allowed on ${request.url ?? ''}`);
    };
    // What only a real OpenMetadata serves: ODCS exports, entities by name, lineage, contract runs.
    const beyond =
      profile === 'openmetadata'
        ? await openMetadataRoute({
            method,
            route,
            query,
            request,
            user,
            catalog,
            store,
            runs,
            release,
            clock,
          })
        : undefined;
    if (beyond !== undefined) return beyond;
    if (route[0] === 'dataContracts') {
      if (route.length === 1) {
        if (method === 'GET' && options.withoutContractList === 404)
          throw new ApiError(404, `HTTP 404 Not Found`);
        if (method === 'GET' && options.withoutContractList !== 405)
          return reply(200, catalog.contracts.listContracts(user, query, catalog.cursors));
        if (method !== 'POST')
          throw new ApiError(405, `Method ${method} not allowed on ${request.url ?? ''}`);
        const body = await readBody(request);
        return contractReply(
          request,
          catalog.contracts.createContract(user, request.headers['content-type'], () =>
            parseJsonBody(body),
          ),
          201,
        );
      }
      // The server's dry run of a create body, on the releases that serve it; on the others
      // the path is only `/{id}`'s, which takes no POST.
      if (route.length === 2 && route[1] === 'validate' && method === 'POST') {
        if (release?.has('createDryRun') !== true)
          throw new ApiError(405, `HTTP 405 Method Not Allowed`);
        const body = await readBody(request);
        return reply(
          200,
          catalog.contracts.validateCreate(user, request.headers['content-type'], () =>
            parseJsonBody(body),
          ),
        );
      }
      if (route.length === 2 && route[1] === 'entity') {
        onlyGet();
        return reply(200, catalog.contracts.getEffectiveContract(user, query));
      }
      // Delete (soft, or hard with hardDelete=true) by id or by name, and restore.
      if (
        method === 'DELETE' &&
        (route.length === 2 || (route.length === 3 && route[1] === 'name'))
      )
        return reply(
          200,
          deleteContract(
            store,
            user,
            route.length === 2 ? { id: route[1]! } : { fqn: route[2]! },
            query,
            clock(),
          ),
        );
      if (route.length === 2 && route[1] === 'restore' && method === 'PUT') {
        const body = await readBody(request);
        return reply(
          200,
          restoreContract(
            store,
            user,
            parseJsonBody(body),
            clock(),
            release?.has('genericTestFailureText') === true,
          ),
        );
      }
      if (route.length === 3 && route[1] === 'name') {
        onlyGet();
        return contractReply(
          request,
          catalog.contracts.getContract(user, { fqn: route[2]! }, query),
        );
      }
      if (route.length === 2) {
        if (method === 'GET')
          return contractReply(
            request,
            catalog.contracts.getContract(user, { id: route[1]! }, query),
          );
        if (method === 'PATCH') {
          const body = await readBody(request);
          const ifMatch = request.headers['if-match'];
          return contractReply(
            request,
            catalog.contracts.patchContract(
              user,
              route[1]!,
              request.headers['content-type'],
              () => (profile === 'openmetadata' ? parsePatchBody(body) : parseJsonBody(body)),
              profile === 'openmetadata' && typeof ifMatch === 'string' ? ifMatch : undefined,
            ),
          );
        }
        throw new ApiError(405, `Method ${method} not allowed on ${request.url ?? ''}`);
      }
    }
    // OpenMetadata's version, its data asset rules and custom properties for an entity type.
    const system = release?.systemAnswer(route, store);
    if (system !== undefined) {
      onlyGet();
      return reply(200, system);
    }
    if (route[0] === 'search' && route.length === 2 && route[1] === 'fieldQuery') {
      onlyGet();
      return reply(200, catalog.search.fieldQuery(user, query));
    }
    if (route[0] === 'search' && route.length === 2 && route[1] === 'query') {
      onlyGet();
      return reply(200, catalog.search.search(user, query));
    }
    if (route[0] === 'tables' && route.length === 1) {
      onlyGet();
      return reply(200, catalog.tables.listTables(user, query));
    }
    throw new ApiError(404, `Route not found: ${method} ${request.url ?? '/'}`);
  };

  const finish = (
    record: RequestRecord,
    outcome: RequestRecord['outcome'],
    status: number,
  ): void => {
    record.outcome = outcome;
    record.status = status;
    record.finishedAt = performance.now();
    log.push(record);
    // Dropping the oldest one by one would move the whole log on every request once it is full.
    if (log.length > LOG_TRIM_AT) log.splice(0, log.length - MAX_LOGGED_REQUESTS);
  };

  const serve = async (
    request: IncomingMessage,
    response: ServerResponse,
    record: RequestRecord,
  ): Promise<void> => {
    const admin = (request.url ?? '').startsWith('/sandbox/');
    const fault =
      faults === null || admin ? null : faults.decide(request.method ?? 'GET', request.url);
    if (fault !== null && fault.latencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    if (fault?.kind === 'reset') {
      finish(record, 'reset', 0);
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') {
      request.resume();
      const headers: Record<string, string> =
        fault.retryAfterSeconds === undefined
          ? {}
          : { 'retry-after': String(fault.retryAfterSeconds) };
      response.on('finish', () => finish(record, 'answered', response.statusCode));
      sendError(response, new ApiError(fault.status, `Injected fault: ${fault.status}`, headers));
      return;
    }
    let answer: Reply;
    try {
      answer = await handle(request, record);
    } catch (error) {
      const apiError =
        error instanceof ApiError
          ? error
          : new ApiError(500, `Internal error: ${(error as Error).message}`);
      response.on('finish', () => finish(record, 'answered', response.statusCode));
      sendError(response, apiError);
      return;
    }
    if (fault?.kind === 'commit-drop') {
      // The work is done and stored; the answer never reaches the client.
      finish(record, 'dropped', answer.status);
      request.socket.destroy();
      return;
    }
    response.on('finish', () => finish(record, 'answered', response.statusCode));
    if (answer.yaml !== undefined) {
      response.writeHead(answer.status, {
        'content-type': 'application/yaml',
        'content-length': String(Buffer.byteLength(answer.yaml)),
      });
      response.end(answer.yaml);
      return;
    }
    if (answer.html !== undefined) {
      response.writeHead(answer.status, {
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(Buffer.byteLength(answer.html)),
      });
      response.end(answer.html);
      return;
    }
    sendJson(response, answer.status, answer.body, answer.headers);
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, (request, response) => {
    const target = request.url ?? '/';
    const mark = target.indexOf('?');
    const record: RequestRecord = {
      seq: ++seq,
      method: request.method ?? 'GET',
      path: mark === -1 ? target : target.slice(0, mark),
      query: mark === -1 ? '' : target.slice(mark + 1),
      status: 0,
      outcome: 'answered',
      user: null,
      ...(typeof request.headers['if-match'] === 'string'
        ? { ifMatch: request.headers['if-match'] }
        : {}),
      startedAt: performance.now(),
      finishedAt: 0,
    };
    serve(request, response, record).catch(() => {
      if (!response.headersSent) response.destroy();
    });
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const root = `http://${host}:${address.port}`;
  return {
    url: profile === 'openmetadata' ? `${root}/api` : root,
    root,
    store,
    requests: () => latest(log),
    clearRequests: () => log.splice(0, log.length),
    get faults() {
      return faults;
    },
    setFaults: (spec) => {
      faults = spec === null ? null : new FaultInjector(spec);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
