// A catalog and contract files made from generated (live, desired) pairs: one table per pair
// whose columns cover both sides, the live contract seeded, the desired one as a file's content.
import type { DesiredContract } from '../../src/model/contract.js';

export interface GeneratedCatalog {
  assets: unknown[];
  contracts: unknown[];
  /** The desired contract of each pair, named and bound like its live one. */
  desired: DesiredContract[];
}

export function catalogFromPairs(
  pairs: readonly (readonly [DesiredContract, DesiredContract])[],
  schemaFqn: string,
): GeneratedCatalog {
  const assets: unknown[] = [];
  const contracts: unknown[] = [];
  const desired: DesiredContract[] = [];
  pairs.forEach(([liveShape, desiredShape], i) => {
    const assetFqn = `${schemaFqn}.t${i}`;
    const fqn = `${assetFqn}.dataContract_c${i}`;
    const id = `2a000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const columns = (shape: DesiredContract) =>
      (shape.schema as { name: string }[] | null | undefined) ?? [];
    const names = new Set([...columns(liveShape), ...columns(desiredShape)].map((c) => c.name));
    assets.push({
      id,
      entityType: 'table',
      name: `t${i}`,
      fullyQualifiedName: assetFqn,
      columns: [...names].map((name) => ({ name, dataType: 'VARCHAR' })),
    });
    const live = Object.fromEntries(Object.entries(liveShape).filter(([, v]) => v !== null));
    contracts.push({
      ...live,
      id: `2c000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `c${i}`,
      fullyQualifiedName: fqn,
      entity: { id, type: 'table', name: `t${i}`, fullyQualifiedName: assetFqn },
      version: 0.1,
    });
    desired.push({
      ...desiredShape,
      name: `c${i}`,
      fullyQualifiedName: fqn,
      entity: { type: 'table', fullyQualifiedName: assetFqn },
    });
  });
  return { assets, contracts, desired };
}
