// The shapes the catalog answers with, as the client reads them.

/** A data contract as the catalog returns it. */
export type LiveContract = Record<string, unknown> & {
  id: string;
  name: string;
  fullyQualifiedName: string;
  entity: { id?: string; type: string; name?: string; fullyQualifiedName: string };
  version: number;
};

export interface FieldChange {
  name: string;
  oldValue?: unknown;
  newValue?: unknown;
}

export interface ChangeDescription {
  fieldsAdded?: FieldChange[];
  fieldsUpdated?: FieldChange[];
  fieldsDeleted?: FieldChange[];
  previousVersion?: number;
}

export type PatchedContract = LiveContract & {
  changeDescription?: ChangeDescription;
  /**
   * What this PATCH alone changed (OpenMetadata). When the server folds one user's changes
   * within ten minutes into one version, `changeDescription` spans them all, from the version
   * before the first; this one does not.
   */
  incrementalChangeDescription?: ChangeDescription;
};

export interface SearchHit {
  _index: string;
  _id: string;
  _score: number | null;
  _source: Record<string, unknown>;
}

export interface SearchResponse {
  hits: { total: { value: number; relation: string }; hits: SearchHit[] };
}

export interface Page<T> {
  data: T[];
  paging: { total?: number; before?: string | null; after?: string | null };
}

/** The lineage graph of an asset, as OpenMetadata answers it (entityLineage.json). */
export interface EntityLineage {
  entity: { id: string; type: string; fullyQualifiedName: string };
  nodes?: { id: string; type: string; fullyQualifiedName: string; deleted?: boolean }[] | null;
  downstreamEdges?: { fromEntity: string; toEntity: string }[] | null;
  upstreamEdges?: { fromEntity: string; toEntity: string }[] | null;
}

/** A run of a contract on its asset (dataContractResult.json). */
export interface ContractRun {
  id?: string;
  contractExecutionStatus: string;
  result?: string;
  timestamp?: number;
  schemaValidation?: {
    passed?: number;
    failed?: number;
    total?: number;
    failedFields?: string[];
    duplicateFields?: string[];
    typeMismatchFields?: string[];
  };
  semanticsValidation?: {
    passed?: number;
    failed?: number;
    total?: number;
    failedRules?: { ruleName?: string; reason?: string }[];
  };
  qualityValidation?: { passed?: number; failed?: number; total?: number; qualityScore?: number };
  /** What a runner that checks the SLA found (slaValidation.json); OpenMetadata stores it as sent. */
  slaValidation?: {
    refreshFrequencyMet?: boolean;
    latencyMet?: boolean;
    availabilityMet?: boolean;
    actualLatency?: number;
  } | null;
}

export interface CatalogClientOptions {
  /** Base URL of the catalog; `/v1` is added (a trailing `/v1` is accepted). */
  baseUrl: string;
  /** Bearer token (JWT). Never logged, never put in an error. */
  token: string;
  /**
   * Requests at once (default 8): the pool's connections, one request each; further requests wait
   * in the pool's queue, unsent, until a connection is free.
   */
  concurrency?: number;
  /** Milliseconds to establish a connection (default 10 s). */
  connectTimeoutMs?: number;
  /** Milliseconds to wait for response headers (default 30 s). */
  headersTimeoutMs?: number;
  /** Milliseconds of silence allowed while reading a body (default 30 s). */
  bodyTimeoutMs?: number;
  /**
   * The most milliseconds one request may take, from going out on a connection to the last byte
   * of its answer, headers and body together (default: the longer of the two timeouts above).
   */
  requestTimeoutMs?: number;
  /** The most pages one list is read in (default MAX_LIST_PAGES, 10,000; see ListCursors). */
  maxListPages?: number;
  /** Retries of a read after a network error, 429, 502, 503 or 504 (default 4). */
  retries?: number;
  /** First backoff in milliseconds, doubled each retry, with full jitter (default 200). */
  retryBaseMs?: number;
  /** Longest single wait, including a Retry-After the server asks for (default 10 s). */
  retryMaxMs?: number;
  /** Random source for jitter (tests pass a fixed one). */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A custom property a catalog defines for an entity type: its name, type and config. */
export interface CustomProperty {
  name: string;
  /** `string`, `integer`, `number`, `markdown`, `enum`, `date-cp`, ...; `unknown` if unnamed. */
  type: string;
  /** An enum's `{values, multiSelect}`, a date's format, ...: as the catalog sends it. */
  config?: unknown;
}

/** OpenMetadata's ContractValidation: its dry run of a create body (`POST /dataContracts/validate`). */
export interface CreateValidation {
  valid?: boolean;
  schemaValidation?: {
    failedFields?: string[];
    duplicateFields?: string[];
    typeMismatchFields?: string[];
  };
  entityErrors?: string[];
  constraintErrors?: string[];
}
