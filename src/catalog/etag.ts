// What a contract read through the client keeps of its answer, under a symbol so it never shows
// in JSON: the answer's ETag (apply sends it as If-Match).

/** Where a contract read through the client keeps the ETag the catalog sent with it, if any. */
export const RESPONSE_ETAG: unique symbol = Symbol('contracts-gitops.responseEtag');

/** The ETag a contract was read with, for `If-Match` on a PATCH of it. */
export function etagOf(contract: unknown): string | undefined {
  if (contract === null || typeof contract !== 'object') return undefined;
  const etag = (contract as { [RESPONSE_ETAG]?: unknown })[RESPONSE_ETAG];
  return typeof etag === 'string' ? etag : undefined;
}
