// HTTP plumbing of the sandbox: errors as the catalog sends them, bounded body reading, JSON out.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;

const ERROR_TYPES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

/** An error answer: `{ code, errorType, message }` with the status as `code`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get errorType(): string {
    return ERROR_TYPES[this.status] ?? 'ERROR';
  }
}

/** A body already serialized, sent as it is (a search engine's stored documents). */
export class JsonText {
  constructor(readonly text: string) {}
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text =
    body === undefined ? '' : body instanceof JsonText ? body.text : JSON.stringify(body);
  response.writeHead(status, {
    ...(text === '' ? {} : { 'content-type': 'application/json' }),
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export function sendError(response: ServerResponse, error: ApiError): void {
  sendJson(
    response,
    error.status,
    { code: error.status, errorType: error.errorType, message: error.message },
    error.headers,
  );
}

/** Reads the whole body, refusing more than MAX_BODY_BYTES with 413. */
export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) {
    request.resume();
    throw new ApiError(
      413,
      `Request body of ${declared} bytes is over the limit of ${MAX_BODY_BYTES} bytes`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      request.resume();
      throw new ApiError(413, `Request body is over the limit of ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new ApiError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}

/** Splits a request target into decoded path segments (so an encoded `/` stays inside one) and a query. */
export function splitTarget(target: string): { segments: string[]; query: URLSearchParams } {
  const questionMark = target.indexOf('?');
  const rawPath = questionMark === -1 ? target : target.slice(0, questionMark);
  const query = new URLSearchParams(questionMark === -1 ? '' : target.slice(questionMark + 1));
  const segments = rawPath
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new ApiError(400, `Malformed percent-encoding in path segment '${segment}'`);
      }
    });
  return { segments, query };
}

export function queryInteger(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw))
    throw new ApiError(400, `Query parameter ${name} must be an integer, got '${raw}'`);
  const value = Number(raw);
  if (value < min)
    throw new ApiError(400, `[query param ${name} must be greater than or equal to ${min}]`);
  if (value > max)
    throw new ApiError(400, `[query param ${name} must be less than or equal to ${max}]`);
  return value;
}

/** A JSON object as the sandbox stores and answers it. */
export type Json = Record<string, unknown>;

/** Orders text by code unit, as a search engine's keyword field does. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The `fields` query parameter as a set; a field not in `allowed` is a 400. */
export function parseFields(
  query: URLSearchParams,
  allowed: ReadonlySet<string> | undefined,
): Set<string> {
  const raw = query.get('fields');
  const fields = new Set(
    (raw ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f !== ''),
  );
  if (allowed !== undefined) {
    for (const field of fields)
      if (!allowed.has(field)) throw new ApiError(400, `Invalid field name ${field}`);
  }
  return fields;
}
