// Where a contract read through the client keeps the SHA-256 of the bytes the catalog sent
// (a symbol, so it never shows in JSON). Plans use it as the live hash.
export const RESPONSE_HASH: unique symbol = Symbol('contracts-gitops.responseHash');
