// A request that follows the catalog's redirects within its own origin, a few at most: the token
// goes to the catalog's origin and nowhere else.
import type { RawResponse } from './answer.js';
import { ConfigError } from '../model/errors.js';

/** Redirects followed for one request. */
const MAX_REDIRECTS = 3;

/**
 * `send(path)`, and again at each place a 3xx answer points to on `baseUrl`'s origin; a redirect
 * to another origin, or more than MAX_REDIRECTS, is a ConfigError.
 */
export async function followRedirects(
  method: string,
  firstPath: string,
  baseUrl: URL,
  send: (path: string) => Promise<RawResponse>,
): Promise<RawResponse> {
  let path = firstPath;
  for (let redirects = 0; ; redirects++) {
    const response = await send(path);
    const location = response.headers.location;
    // A write is never sent twice: its redirect is the caller's to read (the catalog may have
    // kept it), not one to follow with the same body.
    const write = method !== 'GET' && method !== 'HEAD';
    if (response.status < 300 || response.status >= 400 || typeof location !== 'string' || write)
      return response;
    const next = new URL(location, new URL(path, baseUrl.origin));
    if (next.origin !== baseUrl.origin) {
      throw new ConfigError(
        `the catalog redirected ${method} ${path.split('?')[0]!} to another origin (${next.origin}); the token is only sent to ${baseUrl.origin}. If the catalog lives there, set --catalog-url to it.`,
      );
    }
    if (redirects >= MAX_REDIRECTS)
      throw new ConfigError(
        `the catalog redirected ${method} ${path.split('?')[0]!} more than ${MAX_REDIRECTS} times`,
      );
    path = `${next.pathname}${next.search}`;
  }
}
