// OpenMetadata's answer to "what may I do" (`PermissionsResource`, 1.12.6), derived from the seed
// user's permissions: `GET /v1/permissions` (every resource), `/v1/permissions/{resource}`,
// `/{resource}/{id}` and `/{resource}/name/{fqn}`, each a ResourcePermission
// `{resource, permissions: [{operation, access}]}`. The operations of a resource are its
// ResourceRegistry descriptor's, in the order of OpenMetadata's MetadataOperation enum; each is
// `allow` where the seed's permissions give it, `deny` where a resource-level policy refuses it
// (a contract the user's `denyEdit` names), else `notAllow`. An admin is answered `allow` for every
// operation, as DefaultAuthorizer answers an admin. An unknown resource is a 400.
import { ApiError, type Json } from './http.js';
import type { Permission, SeedUser } from './seed.js';
import type { Store } from './store.js';

/** The operations common to all entities (ResourceRegistry.COMMON_OPERATIONS, enum order). */
const COMMON = ['Create', 'Delete', 'ViewAll', 'ViewBasic', 'EditAll', 'EditDescription'];
const COMMON_TAIL = ['EditDisplayName', 'EditGlossaryTerms', 'EditTier'];

/** Each resource the sandbox plays, with its operations in MetadataOperation's order. */
const RESOURCES: Readonly<Record<string, readonly string[]>> = {
  // Fields owners, reviewers and extension add EditOwners, EditReviewers and the custom fields.
  dataContract: [
    'Create',
    'Delete',
    'ViewAll',
    'ViewBasic',
    'ViewCustomFields',
    'EditAll',
    'EditCustomFields',
    'EditDescription',
    'EditDisplayName',
    'EditOwners',
    'EditReviewers',
    'EditGlossaryTerms',
    'EditTier',
  ],
  lineage: ['ViewAll', 'EditAll'],
  table: [
    'Create',
    'Delete',
    'ViewAll',
    'ViewBasic',
    'ViewCustomFields',
    'EditAll',
    'EditCustomFields',
    'EditDescription',
    'EditDisplayName',
    'EditLineage',
    'EditOwners',
    'EditTags',
    'EditGlossaryTerms',
    'EditTier',
  ],
  type: [...COMMON, ...COMMON_TAIL],
};

/** What each of the seed's permissions gives, by resource and operation. */
const GIVES: Readonly<Record<Permission, Readonly<Record<string, readonly string[]>>>> = {
  ViewDataContract: { dataContract: ['ViewAll', 'ViewBasic', 'ViewCustomFields'] },
  EditDataContract: {
    dataContract: [
      'Create',
      'EditAll',
      'EditCustomFields',
      'EditDescription',
      'EditDisplayName',
      'EditOwners',
      'EditReviewers',
      'EditGlossaryTerms',
      'EditTier',
    ],
  },
  DeleteDataContract: { dataContract: ['Delete'] },
  SearchEntities: { table: ['ViewAll', 'ViewBasic'], lineage: ['ViewAll'] },
  EditLineage: { table: ['EditLineage'], lineage: ['EditAll'] },
};

/** The edit operations a resource-level `denyEdit` refuses on the contracts it names. */
const DENIED_EDITS = new Set(['EditAll', 'EditDescription', 'EditDisplayName', 'EditOwners']);

function resourcePermission(user: SeedUser, resource: string, contractFqn?: string): Json {
  const known = Object.keys(RESOURCES).find(
    (name) => name.toLowerCase() === resource.toLowerCase(),
  );
  if (known === undefined) throw new ApiError(400, `Resource type ${resource} not found`);
  const given = new Set(user.permissions.flatMap((permission) => GIVES[permission][known] ?? []));
  const denied = contractFqn !== undefined && user.denyEdit?.includes(contractFqn) === true;
  return {
    resource: known,
    permissions: RESOURCES[known]!.map((operation) => ({
      operation,
      access:
        user.admin === true
          ? 'allow'
          : denied && DENIED_EDITS.has(operation)
            ? 'deny'
            : given.has(operation)
              ? 'allow'
              : 'notAllow',
    })),
  };
}

/**
 * The answer to `GET /v1/permissions[/...]` (`route` is the path after `permissions`); undefined
 * for a path the resource does not serve.
 */
export function permissionsAnswer(
  store: Store,
  user: SeedUser,
  route: readonly string[],
): Json | undefined {
  if (route.length === 0) {
    const data = Object.keys(RESOURCES).map((resource) => resourcePermission(user, resource));
    return { data, paging: { total: data.length } };
  }
  const [resource, second, third] = route as [string, string?, string?];
  if (route.length === 1) return resourcePermission(user, resource);
  if (resource === 'dataContract' && route.length === 2) {
    // By id: the contract's own policies (its `denyEdit`); a contract the sandbox lacks is a 404.
    const contract = store.contracts.get(second!);
    if (contract === undefined)
      throw new ApiError(404, `dataContract instance for ${second!} not found`);
    return resourcePermission(user, resource, contract.fullyQualifiedName);
  }
  if (route.length === 2) return resourcePermission(user, resource);
  if (route.length === 3 && second === 'name')
    return resourcePermission(user, resource, resource === 'dataContract' ? third : undefined);
  return undefined;
}
