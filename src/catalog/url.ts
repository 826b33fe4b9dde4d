// The catalog's base URL as the tool takes, shows and stores it, and path segments built safely.
import { ConfigError } from '../model/errors.js';

/** The catalog base URL as the tool shows and stores it: no credentials, no query, no trailing /v1. */
export function normalizeCatalogUrl(raw: string): URL {
  let url: URL;
  // `localhost:8585` parses as a URL of scheme `localhost:`: a base URL without its scheme.
  if (/^[\w.-]+(:\d+)?(\/\S*)?$/.test(raw))
    throw new ConfigError(
      `the catalog URL '${raw}' has no http:// or https:// in front; give a base URL such as http://${raw}`,
    );
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `the catalog URL '${raw.replace(/\/\/.*@/, '//***@')}' is not a valid URL; give a base URL such as http://localhost:8585/api`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`the catalog URL must be http or https, got ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new ConfigError(
      'the catalog URL must not hold credentials; put the token in CATALOG_TOKEN',
    );
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return url;
}

export function catalogUrlText(url: URL): string {
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * One path segment, percent-encoded; `.` and `..` too, which URL handling anywhere on the way
 * would otherwise read as "this folder" and "the folder above".
 */
export function pathSegment(value: string): string {
  if (value === '.' || value === '..') return value.replace(/\./g, '%2E');
  return encodeURIComponent(value);
}
