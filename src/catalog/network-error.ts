// The typed error of a request that got no answer: a timeout, a refused or reset connection, or
// TLS spoken to a catalog that serves plain http, each naming the request and never the token.
import { NetworkError, TimeoutError, errorMessage } from '../model/errors.js';
import { catalogUrlText } from './url.js';

/** What `method path` failing with undici's `error` against `baseUrl` is; `redact` hides the token. */
export function networkError(
  method: string,
  path: string,
  error: unknown,
  baseUrl: URL,
  redact: (text: string) => string,
): NetworkError {
  const code = (error as { code?: string }).code ?? '';
  const where = `${method} ${path.split('?')[0]!}`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' && baseUrl.protocol === 'https:')
    return new NetworkError(
      `${where} failed: the catalog at ${catalogUrlText(baseUrl)} does not answer TLS (https); if it serves plain http, use ${catalogUrlText(baseUrl).replace(/^https:/, 'http:')}`,
      { cause: error },
    );
  const reason = errorMessage(error, redact);
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'REQUEST_DEADLINE'
  ) {
    return new TimeoutError(`${where} timed out (${reason})`, { cause: error });
  }
  return new NetworkError(`${where} failed: ${reason}${code === '' ? '' : ` (${code})`}`, {
    cause: error,
  });
}
