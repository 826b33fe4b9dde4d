// What a reviewer is told of a contract on an asset of a data product: which fields of the
// asset's contract in force come from the product's contract (OpenMetadata's effective contract),
// and which the file gives its own value instead.
import type { LiveContract } from '../catalog/client.js';
import type { ContractFile } from '../contract/parse.js';

const INHERITABLE = ['termsOfUse', 'security', 'sla'] as const;

/**
 * The values of the asset's contract in force that come from its data product: those of the
 * inheritable fields its own contract (none, for one to create) leaves unset.
 */
export function inheritedValues(
  own: LiveContract | null,
  effective: LiveContract,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of INHERITABLE)
    if ((own === null || own[field] === undefined) && effective[field] !== undefined)
      values[field] = effective[field];
  return values;
}

/** Which fields of an asset's effective contract come from its data product, said for reviewers. */
export function inheritanceNotes(
  file: ContractFile,
  own: LiveContract | null,
  effective: LiveContract,
  product: string,
): string[] {
  const { type, fullyQualifiedName } = file.identity.entity;
  if (own === null) {
    return effective.inherited === true
      ? [
          `${type} ${fullyQualifiedName} currently inherits contract ${effective.fullyQualifiedName} from data product ${product}; creating its own contract will override the inherited one`,
        ]
      : [];
  }
  const inherited: string[] = INHERITABLE.filter(
    (field) => own[field] === undefined && effective[field] !== undefined,
  );
  const ownRules = new Set(
    Array.isArray(own.semantics)
      ? (own.semantics as { name?: unknown }[]).map((rule) => rule.name)
      : [],
  );
  const rules = (
    Array.isArray(effective.semantics)
      ? (effective.semantics as { name?: unknown; inherited?: unknown }[])
      : []
  )
    .filter((rule) => rule.inherited === true || !ownRules.has(rule.name))
    .map((rule) => String(rule.name));
  const notes: string[] = [];
  const managedHere: string[] = inherited.filter(
    (field) => file.contract[field] !== undefined && file.contract[field] !== null,
  );
  const notManaged = inherited.filter((field) => !managedHere.includes(field));
  // A rule the file itself names is the contract's own once applied, not one to edit elsewhere.
  const fileRules = new Set(
    Array.isArray(file.contract.semantics)
      ? (file.contract.semantics as { name?: unknown }[]).map((rule) => rule.name)
      : [],
  );
  managedHere.push(
    ...rules.filter((rule) => fileRules.has(rule)).map((rule) => `semantics rule ${rule}`),
  );
  const described = [
    ...notManaged,
    ...rules.filter((rule) => !fileRules.has(rule)).map((rule) => `semantics rule ${rule}`),
  ];
  if (described.length > 0) {
    notes.push(
      `inherited from data product ${product}: ${described.join(', ')}; change ${described.length === 1 ? 'it' : 'them'} in the product's contract, not here`,
    );
  }
  if (managedHere.length > 0) {
    notes.push(
      `${managedHere.join(', ')} ${managedHere.length === 1 ? 'is' : 'are'} now inherited from data product ${product}; this file gives the contract its own value instead`,
    );
  }
  return notes;
}
