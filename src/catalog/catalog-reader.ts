// The catalog reads a plan needs, and the once-a-run asking of what the catalog holds.
import type { CatalogClient } from './client.js';
import { AuthError, errorMessage } from '../model/errors.js';

/** The catalog reads a plan needs: CatalogClient's, so tests may pass any object that has them. */
export type CatalogReader = Pick<
  CatalogClient,
  'getContractByName' | 'getEffectiveContract' | 'fieldQuery' | 'redact'
> &
  Partial<
    Pick<
      CatalogClient,
      | 'preflight'
      | 'systemVersion'
      | 'listPage'
      | 'referenceEntity'
      | 'entityRules'
      | 'customProperties'
      | 'validateCreate'
      | 'refusedExtension'
      | 'deleteContract'
      | 'listAll'
      | 'lineage'
      | 'assetOwners'
    >
  >;

/**
 * `ask` of the catalog at most once a run, when first needed: its answer, or why there is none
 * (`unknown`: the client cannot ask, or the catalog failed to answer). A token the catalog
 * refuses stops the plan.
 */
export function askedOnce<T>(
  reader: CatalogReader,
  ask: (() => Promise<T>) | undefined,
): () => Promise<T | { unknown: string }> {
  let asked: Promise<T | { unknown: string }> | undefined;
  return () =>
    (asked ??= (async () => {
      if (ask === undefined) return { unknown: 'this client cannot ask' };
      try {
        return await ask();
      } catch (error) {
        if (error instanceof AuthError) throw error;
        return { unknown: errorMessage(error, reader.redact.bind(reader)) };
      }
    })());
}
