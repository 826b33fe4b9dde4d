// A new contract for an asset without one: its columns (name and type, as the catalog lists them)
// and owners, in draft, named after the asset and bound to it, in the catalog's wire shape so that
// it is written as import writes a live contract. Pure: the asset's search document comes in.
import type { LiveContract } from '../catalog/client.js';
import type { AssetDocument } from '../plan/asset-document.js';
import type { Profile } from '../model/profile.js';

/** A data type the file format takes (an uppercase token), else UNKNOWN, which both profiles store. */
function dataTypeOf(value: unknown): string {
  return typeof value === 'string' && /^[A-Z][A-Z0-9_ ]*$/.test(value) ? value : 'UNKNOWN';
}

/** The references of the asset's owners a file can name (users and teams). */
function ownersOf(document: AssetDocument): { type: string; name: string }[] {
  const owners = Array.isArray(document.owners) ? (document.owners as unknown[]) : [];
  return owners.flatMap((owner) => {
    const { type, name } = (owner ?? {}) as { type?: unknown; name?: unknown };
    return (type === 'user' || type === 'team') && typeof name === 'string' && name !== ''
      ? [{ type, name }]
      : [];
  });
}

/** The asset's name: its search document's, else the last part of its FQN. */
export function assetName(document: AssetDocument): string {
  if (typeof document.name === 'string' && document.name !== '') return document.name;
  return document.fullyQualifiedName.split('.').pop() ?? document.fullyQualifiedName;
}

/**
 * The contract `contracts new` writes for `document` (an asset of `type`): a draft, with the
 * asset's top-level columns when it has any, and its owners; as a live contract of `profile`'s
 * wire, for the import writer.
 */
export function scaffoldContract(
  document: AssetDocument,
  type: string,
  profile: Profile,
): LiveContract {
  const name = assetName(document);
  const columns = Array.isArray(document.columns) ? document.columns : [];
  const owners = ownersOf(document);
  return {
    id: '',
    version: 0,
    name,
    fullyQualifiedName: `${document.fullyQualifiedName}.dataContract_${name}`,
    entity: { type, fullyQualifiedName: document.fullyQualifiedName },
    entityStatus: 'Draft',
    ...(columns.length === 0
      ? {}
      : {
          schema: columns
            .filter((column) => typeof column.name === 'string')
            .map((column) => ({ name: column.name, dataType: dataTypeOf(column.dataType) })),
        }),
    ...(owners.length === 0
      ? {}
      : {
          owners:
            profile === 'openmetadata'
              ? owners.map((owner) => ({ ...owner, fullyQualifiedName: owner.name }))
              : owners,
        }),
  };
}
