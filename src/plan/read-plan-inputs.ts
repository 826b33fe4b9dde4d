// Reads what a plan needs from the catalog: each file's live contract by FQN, and for a contract
// the catalog lacks, whether its asset inherits one from a data product. I/O only through the
// reader passed in; the plan itself is made by createPlan.
import type { LiveContract, SearchResponse } from '../catalog/client.js';
import type { ContractFile } from '../contract/parse.js';
import { AuthError, CatalogError, NetworkError, NotFoundError } from '../errors.js';
import type { PlanInput } from './create-plan.js';

/** The catalog reads a plan needs. CatalogClient provides them. */
export interface CatalogReader {
  getContractByName(fqn: string, fields?: readonly string[]): Promise<LiveContract>;
  getEffectiveContract(
    entityId: string,
    entityType: string,
    fields?: readonly string[],
  ): Promise<LiveContract>;
  fieldQuery(query: {
    fieldName: string;
    fieldValue: string;
    index: string;
    from?: number;
    size?: number;
  }): Promise<SearchResponse>;
  redact(text: string): string;
}

/** Fields a plan reads with each contract, so that owners, reviewers and extension can be managed. */
export const CONTRACT_FIELDS = ['owners', 'reviewers', 'extension'] as const;

const SEARCH_INDEX_BY_TYPE: Record<string, string> = {
  table: 'table_search_index',
  topic: 'topic_search_index',
  dashboard: 'dashboard_search_index',
  pipeline: 'pipeline_search_index',
  mlmodel: 'mlmodel_search_index',
  container: 'container_search_index',
  searchIndex: 'search_entity_search_index',
  glossaryTerm: 'glossary_term_search_index',
  dataProduct: 'data_product_search_index',
  domain: 'domain_search_index',
};

export function searchIndexFor(entityType: string): string | undefined {
  return SEARCH_INDEX_BY_TYPE[entityType];
}

/** Escapes the wildcard characters of a field query value, so it matches only itself. */
export function exactFieldValue(value: string): string {
  return value.replace(/[\\*?]/g, (ch) => `\\${ch}`);
}

/** The asset's id through the field query search, or undefined when the search does not find it. */
export async function findAssetId(
  reader: CatalogReader,
  entityType: string,
  fqn: string,
): Promise<string | undefined> {
  const index = searchIndexFor(entityType);
  if (index === undefined) return undefined;
  const result = await reader.fieldQuery({
    fieldName: 'fullyQualifiedName',
    fieldValue: exactFieldValue(fqn),
    index,
    size: 10,
  });
  return result.hits.hits.find((hit) => hit._source.fullyQualifiedName === fqn)?._id;
}

async function inheritanceNote(
  reader: CatalogReader,
  file: ContractFile,
): Promise<string | undefined> {
  const { type, fullyQualifiedName } = file.contract.entity;
  try {
    const assetId = await findAssetId(reader, type, fullyQualifiedName);
    if (assetId === undefined)
      return `the catalog's search does not find ${type} ${fullyQualifiedName} either`;
    const effective = await reader.getEffectiveContract(assetId, type);
    if (effective.inherited === true) {
      return `${type} ${fullyQualifiedName} currently inherits contract ${effective.fullyQualifiedName} from its data product; creating its own contract will override the inherited one`;
    }
  } catch (error) {
    if (error instanceof AuthError) throw error;
    // The note is a courtesy: a failed lookup leaves the contract reported as missing.
  }
  return undefined;
}

export interface ReadOptions {
  /** Called after each contract is read, with how many are done. */
  onProgress?: (done: number, total: number) => void;
}

/** Reads the live contract of every file (concurrency is bounded by the reader). */
export async function readPlanInputs(
  files: readonly ContractFile[],
  reader: CatalogReader,
  options: ReadOptions = {},
): Promise<PlanInput[]> {
  let done = 0;
  return Promise.all(
    files.map(async (file): Promise<PlanInput> => {
      try {
        const contract = await reader.getContractByName(
          file.contract.fullyQualifiedName,
          CONTRACT_FIELDS,
        );
        return { file, live: { kind: 'found', contract } };
      } catch (error) {
        if (error instanceof NotFoundError) {
          const note = await inheritanceNote(reader, file);
          return { file, live: { kind: 'missing' }, notes: note === undefined ? [] : [note] };
        }
        // A bad token fails every request alike: stop the whole plan with one clear error.
        if (error instanceof AuthError) throw error;
        if (error instanceof CatalogError || error instanceof NetworkError) {
          return { file, live: { kind: 'error', message: reader.redact(error.message) } };
        }
        throw error;
      } finally {
        done += 1;
        options.onProgress?.(done, files.length);
      }
    }),
  );
}
