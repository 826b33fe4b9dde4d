// What a contract read through the client keeps of its answer, under a symbol so it never shows
// in JSON: the answer's ETag. Apply sends If-Match from it.
import type { Profile } from '../profile/profile.js';
import { javaVersion } from './patch-text.js';

/** Where a contract read through the client keeps the ETag the catalog sent with it, if any. */
export const RESPONSE_ETAG: unique symbol = Symbol('contracts-gitops.responseEtag');

/** The ETag a contract was read with. */
export function etagOf(contract: unknown): string | undefined {
  if (contract === null || typeof contract !== 'object') return undefined;
  const etag = (contract as { [RESPONSE_ETAG]?: unknown })[RESPONSE_ETAG];
  return typeof etag === 'string' ? etag : undefined;
}

/**
 * The If-Match a PATCH of `contract` sends: nothing when it was read without an ETag. Under the
 * spec, the ETag as read. OpenMetadata weighs If-Match against the contract as it loads it for
 * the PATCH, and from 2.0 on the strong ETag of a read is a hash of that read's answer, which no
 * PATCH matches (open-metadata/OpenMetadata#30885); every release since ETags came takes the weak
 * validator `W/"<version>"`, its own clients' way, so that is what is sent, the version as Java
 * writes it.
 */
export function ifMatchFor(contract: unknown, profile: Profile): string | undefined {
  const etag = etagOf(contract);
  if (etag === undefined || profile !== 'openmetadata') return etag;
  const version = (contract as { version?: unknown }).version;
  return typeof version === 'number' ? `W/"${javaVersion(version)}"` : etag;
}
