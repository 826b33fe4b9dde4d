// How the tool speaks HTTP to the catalog: undici with a keep-alive pool (in a thread of its
// own, connections.ts), timeouts, bounded concurrency, reads sent again on a network failure or
// a 429/502/503/504 (exponential backoff with jitter, or the Retry-After asked), writes sent
// again only after a 429, answers read into typed errors, redirects never leaving the origin, and
// a token that is never echoed. What the catalog's resources are is the client's (client.ts).
import { NetworkError } from '../model/errors.js';
import { networkError } from './network-error.js';
import { USER_AGENT } from '../support/version.js';
import { parseAnswer, retryAfterMs, type RawResponse } from './answer.js';
import { withEtag } from './etag.js';
import { Connections } from './connections.js';
import type { AnswerShape } from './shapes.js';
import type { CatalogClientOptions } from './types.js';
import { followRedirects } from './redirects.js';
import { redactorFor } from './redact.js';
import { checkedToken } from './token.js';
import { normalizeCatalogUrl } from './url.js';

/** The statuses of a request the catalog did not take, so that it may be sent again. */
export const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/**
 * The most milliseconds one request may take, headers and body together: `requestTimeoutMs` when
 * given, else the longer of the header and body timeouts. So CATALOG_TIMEOUT_MS, which sets both,
 * bounds each request whole (an answer trickled a byte at a time included), and by default a
 * request gets 30 s.
 */
function requestDeadline(
  requestTimeoutMs: number | undefined,
  headersTimeoutMs: number,
  bodyTimeoutMs: number,
): number {
  const deadline = requestTimeoutMs ?? Math.max(headersTimeoutMs, bodyTimeoutMs);
  if (!Number.isFinite(deadline) || deadline <= 0)
    throw new RangeError(
      `a request's deadline must be a positive number of milliseconds, got ${deadline}`,
    );
  return deadline;
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class CatalogTransport {
  readonly baseUrl: URL;
  /** The interface's path on the server: `/v1`, under the base URL's own path (`/api/v1`). */
  readonly prefix: string;
  private readonly connections: Connections;
  private readonly retries: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly token: string;
  /** Takes the token, in any form, and credentials of known shapes out of a text. */
  private readonly redactor: (text: string) => string;

  constructor(options: CatalogClientOptions) {
    this.baseUrl = normalizeCatalogUrl(options.baseUrl);
    this.token = checkedToken(options.token);
    this.redactor = redactorFor(this.token);
    const concurrency = options.concurrency ?? 8;
    // The pool is the only bound on requests at once, so it must be a real one (undici reads a
    // missing or zero `connections` as "no limit").
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError(`concurrency must be a whole number of at least 1, got ${concurrency}`);
    const headersTimeout = options.headersTimeoutMs ?? 30_000;
    const bodyTimeout = options.bodyTimeoutMs ?? 30_000;
    this.connections = new Connections(
      this.baseUrl.origin,
      {
        connections: concurrency,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout,
        bodyTimeout,
        keepAliveTimeout: 10_000,
      },
      {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        'user-agent': USER_AGENT,
      },
      requestDeadline(options.requestTimeoutMs, headersTimeout, bodyTimeout),
    );
    this.prefix = `${this.baseUrl.pathname === '/' ? '' : this.baseUrl.pathname}/v1`;
    this.retries = options.retries ?? 4;
    this.retryBaseMs = options.retryBaseMs ?? 200;
    this.retryMaxMs = options.retryMaxMs ?? 10_000;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? defaultSleep;
  }

  /**
   * Removes the token from any text that might echo a request (server messages, errors): in any
   * form, and any piece of it long enough to tell, and credentials of known shapes (redact.ts).
   */
  redact(text: string): string {
    return this.redactor(text);
  }

  /** Closes the connections; `abandon` drops the reads still queued (see Connections.close). */
  async close(abandon = false): Promise<void> {
    await this.connections.close(abandon);
  }

  /**
   * `method path` with a body (a write): sent again only while the catalog answers with a
   * status of `again` (a 429 for a write it did not take), after the wait it asks for, bounded;
   * the last answer read as `shape`. `unserved` statuses answer null (a route the catalog lacks).
   */
  async write(
    method: string,
    path: string,
    body: string,
    contentType: string,
    shape: AnswerShape,
    options: {
      again?: ReadonlySet<number>;
      unserved?: readonly number[];
      headers?: Record<string, string>;
    } = {},
  ): Promise<unknown> {
    const again = options.again ?? new Set([429]);
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, path, body, {
        'content-type': contentType,
        ...options.headers,
      });
      if (options.unserved?.includes(response.status) === true) return null;
      if (!again.has(response.status) || attempt >= this.retries)
        return this.answer(method, path, response, shape);
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

  /** `GET path?params` read as `shape`, sent again as a read is; `keepEtag` keeps the answer's ETag. */
  async getJson<T>(
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
          withEtag(value as object, etag);
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
