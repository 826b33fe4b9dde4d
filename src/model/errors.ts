// The error hierarchy of the tool. Only the CLI entry turns these into exit codes.

/** Base class of every error the tool raises on purpose; its message is shown to the user as is. */
export class ContractsError extends Error {
  override name = 'ContractsError';
}

/** Bad flags, missing settings, unreadable paths: the user can fix it and try again. */
export class ConfigError extends ContractsError {
  override name = 'ConfigError';
}

/** An error answer from the catalog, with the fields of the catalog's error table. */
export class CatalogError extends ContractsError {
  override name = 'CatalogError';
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** Error type from the body (`errorType`), or derived from the status when the body has none. */
    readonly errorType: string,
    /** The server's message, with the token redacted. */
    readonly serverMessage: string,
    /** `METHOD /v1/...` of the request that failed (never the token). */
    readonly request: string,
    /** What to tell the person instead of the request's failure, where there is something better. */
    said?: string,
  ) {
    super(said ?? `${request} failed with status ${status} ${errorType}: ${serverMessage}`);
  }
}

/** 401: missing, invalid or expired token. */
export class AuthError extends CatalogError {
  override name = 'AuthError';
}

/** 403: the token's user lacks a permission. */
export class ForbiddenError extends CatalogError {
  override name = 'ForbiddenError';
}

/** 404: no such contract, asset or route. */
export class NotFoundError extends CatalogError {
  override name = 'NotFoundError';
}

/** The request never got an HTTP answer (connection refused, reset, DNS); `cause` holds the original. */
export class NetworkError extends ContractsError {
  override name = 'NetworkError';
}

/** The request got no complete answer in time. */
export class TimeoutError extends NetworkError {
  override name = 'TimeoutError';
}

/** A saved plan whose live contracts moved on since it was made. */
export class StalePlanError extends ContractsError {
  override name = 'StalePlanError';
}

/** A bug in this tool (for example a patch that failed its own verification). Nothing was sent. */
export class InternalError extends ContractsError {
  override name = 'InternalError';
}

/** Builds the typed error for a catalog answer. */
export function catalogErrorFor(
  status: number,
  errorType: string,
  message: string,
  request: string,
): CatalogError {
  if (status === 401) return new AuthError(status, errorType, message, request);
  if (status === 403) return new ForbiddenError(status, errorType, message, request);
  if (status === 404) return new NotFoundError(status, errorType, message, request);
  return new CatalogError(status, errorType, message, request);
}

/** Error type the spec gives for a status, used when a body carries none (older servers). */
export function errorTypeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'TOO_MANY_REQUESTS';
    default:
      return status >= 500 ? 'SERVER_ERROR' : 'HTTP_ERROR';
  }
}

/** An error's message as text, through `redact` (which takes the catalog token out of it). */
export function errorMessage(error: unknown, redact: (text: string) => string): string {
  return redact(error instanceof Error ? error.message : String(error));
}
