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

export type PatchedContract = LiveContract & { changeDescription?: ChangeDescription };

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
