// The catalog reads a plan needs.
import type { CatalogClient } from '../catalog/client.js';

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
    >
  >;
