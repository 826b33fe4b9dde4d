// The one clear error a command gives when its first cheap read of the catalog fails: a wrong URL,
// an unreachable catalog, a bad token, or the catalog's web address instead of its API.
import {
  AuthError,
  CatalogError,
  ConfigError,
  type ContractsError,
  NetworkError,
  NotFoundError,
  TimeoutError,
} from '../model/errors.js';

/**
 * What to tell the person when `GET {prefix}/tables?limit=1` against `base` failed with `error`;
 * undefined for answers that leave the real requests to report for themselves. A refused token
 * stays an AuthError and an unreachable catalog a NetworkError, so that `--json` says `auth` and
 * `network` for scripts to branch on; the rest is the address's fault, a ConfigError.
 */
export function preflightProblem(
  error: unknown,
  base: string,
  prefix: string,
): ContractsError | undefined {
  if (error instanceof NotFoundError) {
    return new ConfigError(
      `${base} does not look like the catalog: GET ${prefix}/tables answered 404. Check --catalog-url or CATALOG_URL (OpenMetadata's is http://HOST:8585/api).`,
    );
  }
  if (error instanceof NetworkError && !(error instanceof TimeoutError)) {
    const said = `cannot reach the catalog at ${base}: ${error.message}. Is it running, and is --catalog-url or CATALOG_URL right?`;
    // TLS spoken to a catalog of plain http: the address is at fault, not the network.
    const tls = (error.cause as { code?: unknown } | undefined)?.code;
    return tls === 'ERR_SSL_WRONG_VERSION_NUMBER'
      ? new ConfigError(said)
      : new NetworkError(said, { cause: error });
  }
  if (error instanceof AuthError)
    return new AuthError(
      error.status,
      error.errorType,
      error.serverMessage,
      error.request,
      `the catalog at ${base} refused the token (401: ${error.serverMessage}). Check CATALOG_TOKEN: it may have expired, or belong to another catalog or user.`,
    );
  if (
    error instanceof CatalogError &&
    (error.errorType === 'INVALID_RESPONSE' || error.errorType === 'UNEXPECTED_RESPONSE')
  ) {
    const api = /\/api$/.test(base)
      ? ''
      : ` If ${base} is the catalog's web address, its API is under /api: try --catalog-url ${base}/api.`;
    return new ConfigError(
      `${base} answered GET ${prefix}/tables with a page that is not the catalog's API (${error.errorType === 'INVALID_RESPONSE' ? 'not JSON' : 'not a list of tables'}).${api}`,
    );
  }
  return undefined;
}
