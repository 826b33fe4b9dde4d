// The catalog interface of spec/catalog-service.md over the sandbox's store, one part per
// resource: contracts (by id and name, effective, create, PATCH), search (field query and general
// search) and the tables list.
import { Contracts } from './contracts.js';
import { Cursors } from './cursors.js';
import { Directory } from './directory.js';
import type { SandboxProfile } from './openmetadata.js';
import type { OpenMetadataRelease } from './release.js';
import { Search } from './search.js';
import type { Store } from './store.js';
import { Tables } from './tables.js';

export type { Json } from './http.js';

export class Catalog {
  readonly contracts: Contracts;
  readonly search: Search;
  readonly tables: Tables;
  /** The cursors of the list endpoints. */
  readonly cursors: Cursors;
  /** Under openmetadata: the users, teams and test cases a contract may reference. */
  readonly directory: Directory | undefined;

  constructor(
    store: Store,
    secret: string,
    clock: () => number = Date.now,
    readonly profile: SandboxProfile = 'spec',
    /** Under openmetadata: the release played (its ETags). */
    release?: OpenMetadataRelease,
  ) {
    this.directory = profile === 'openmetadata' ? Directory.of(store) : undefined;
    this.contracts = new Contracts(store, clock, profile, this.directory, release);
    this.search = new Search(store, profile);
    this.cursors = new Cursors(secret);
    this.tables = new Tables(store, this.cursors);
  }
}
