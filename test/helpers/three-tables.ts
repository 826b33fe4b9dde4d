// Three contracts on three tables, used where apply must stop part way: with `badSecond`, the
// second file names a column its table lacks, so its PATCH is a 400. Plan finds such a column in
// the search index and refuses to send it; a token that may not search (dave's) skips that
// check, and the 400 comes from the catalog.
import { stringify } from 'yaml';
import { seed } from './sandbox.js';

export const tableIds = [
  '1a000000-0000-4000-8000-000000000001',
  '1a000000-0000-4000-8000-000000000002',
  '1a000000-0000-4000-8000-000000000003',
];
export const threeSeed = () =>
  seed({
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      { name: 'bob', permissions: ['ViewDataContract', 'SearchEntities'] },
      { name: 'dave', permissions: ['ViewDataContract', 'EditDataContract'] },
    ],
    assets: ['a', 'b', 'c'].map((name, i) => ({
      id: tableIds[i],
      entityType: 'table',
      name,
      fullyQualifiedName: `db.s.${name}`,
      columns: [{ name: 'id', dataType: 'BIGINT' }],
    })),
    dataProducts: [],
    dataContracts: ['a', 'b', 'c'].map((name, i) => ({
      id: `1c000000-0000-4000-8000-00000000000${i + 1}`,
      name,
      fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
      entity: { id: tableIds[i], type: 'table', name, fullyQualifiedName: `db.s.${name}` },
      description: 'old',
      schema: [{ name: 'id', dataType: 'BIGINT' }],
      semantics: [{ name: 'hasOwner' }],
      version: 0.1,
    })),
  });

export function threeFiles(badSecond: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  ['a', 'b', 'c'].forEach((name) => {
    const schema = [
      { name: 'id', dataType: 'BIGINT' },
      ...(badSecond && name === 'b' ? [{ name: 'ghost', dataType: 'INT' }] : []),
    ];
    files[`contracts/${name}.yaml`] = stringify({
      name,
      fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
      entity: { type: 'table', fullyQualifiedName: `db.s.${name}` },
      description: `new ${name}`,
      schema,
      semantics: [{ name: 'hasOwner' }, { name: 'hasDescription' }],
    });
  });
  return files;
}
