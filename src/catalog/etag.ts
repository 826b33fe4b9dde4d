// What a contract read through the client keeps of its answer, under a symbol so it never shows
// in JSON: the answer's ETag. Apply sends If-Match from it.
import { createHash } from 'node:crypto';
import type { Codec } from '../profile/codec-types.js';
import { hashesAnswerForEtag } from '../profile/releases.js';
import { javaVersion } from './patch-text.js';

/** Where a contract read through the client keeps the ETag the catalog sent with it, if any. */
export const RESPONSE_ETAG: unique symbol = Symbol('contracts-gitops.responseEtag');

/** `contract`, keeping `etag` as the one it was read with (never shown in its JSON). */
export function withEtag<T extends object>(contract: T, etag: string | undefined): T {
  if (etag !== undefined) Object.defineProperty(contract, RESPONSE_ETAG, { value: etag });
  return contract;
}

/** The ETag a contract was read with. */
export function etagOf(contract: unknown): string | undefined {
  if (contract === null || typeof contract !== 'object') return undefined;
  const etag = (contract as { [RESPONSE_ETAG]?: unknown })[RESPONSE_ETAG];
  return typeof etag === 'string' ? etag : undefined;
}

/**
 * The strong ETag OpenMetadata 1.x gives a contract: the first 16 hex digits of a SHA-256 of
 * "<version>-<updatedAt>", the version as Java writes a Double (EntityETag.generateETag).
 */
function versionEtag(version: number, updatedAt: number): string {
  const hash = createHash('sha256').update(`${javaVersion(version)}-${updatedAt}`, 'utf8');
  return `"${hash.digest('hex').slice(0, 16)}"`;
}

/**
 * The If-Match a PATCH of `contract` sends: nothing when it was read without an ETag, or when the
 * catalog is an OpenMetadata release that drops contract changes sent with one (1.10.0–1.13.0,
 * or a release that does not say which it is: `codec.sendsIfMatch`); the patch's `test` guards
 * protect it then. Under the spec, the ETag as read. OpenMetadata weighs If-Match against the contract as it loads it for
 * the PATCH. Up to 1.x its strong ETag hashes the version and updatedAt, the same for a read and
 * a PATCH, and moves with every change it stores, even one it folds into the same version (one
 * user's changes within ten minutes): when the read's ETag is that hash, it is sent as read, so
 * that a folded change by the same user (another job with the same token) is refused too. From
 * 2.0 on the strong ETag of a read is a hash of that read's answer, which no PATCH matches
 * (open-metadata/OpenMetadata#30885); every release since ETags came takes the weak validator
 * `W/"<version>"`, its own clients' way, so that is what is sent then, the version as Java
 * writes it.
 */
export function ifMatchFor(
  contract: unknown,
  codec: Pick<Codec, 'profile' | 'sendsIfMatch'>,
): string | undefined {
  const etag = etagOf(contract);
  if (etag === undefined || !codec.sendsIfMatch) return undefined;
  if (codec.profile !== 'openmetadata') return etag;
  const { version, updatedAt } = contract as { version?: unknown; updatedAt?: unknown };
  if (typeof version !== 'number') return etag;
  if (typeof updatedAt === 'number' && etag === versionEtag(version, updatedAt)) return etag;
  return `W/"${javaVersion(version)}"`;
}

/**
 * The validator a PATCH of a contract read from the catalog's list sends, where a GET by name
 * would have given an ETag (a list item carries none, and is otherwise the same document): what
 * ifMatchFor would send from that read. On OpenMetadata 1.x the strong ETag is the hash of the
 * version and updatedAt, which the item holds; from 2.0 on, and under the spec (whose PATCH
 * weighs `W/"<version>"`), the weak validator of its version. Nothing to a catalog that is sent no
 * If-Match, or for an item without a numeric version.
 */
export function listedEtag(
  contract: unknown,
  codec: Pick<Codec, 'profile' | 'sendsIfMatch' | 'release'>,
): string | undefined {
  if (!codec.sendsIfMatch || contract === null || typeof contract !== 'object') return undefined;
  const { version, updatedAt } = contract as { version?: unknown; updatedAt?: unknown };
  if (typeof version !== 'number') return undefined;
  if (codec.profile === 'openmetadata' && !hashesAnswerForEtag(codec.release))
    return typeof updatedAt === 'number' ? versionEtag(version, updatedAt) : undefined;
  return `W/"${javaVersion(version)}"`;
}
