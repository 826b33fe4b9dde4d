// The 16 realistic contract edits the diff engine is measured on, each with the hand-written
// minimal patch a careful person would send. Shared by the unit tests and `npm run bench:diff`.
import type { DesiredContract } from '../src/model/contract.js';
import type { Operation } from '../src/model/operation.js';

export interface EditCase {
  kind: string;
  live: Record<string, unknown>;
  desired: DesiredContract;
  minimal: Operation[];
}

type Column = { name: string; dataType: string; constraint?: string; description?: string };

const TYPES = ['BIGINT', 'VARCHAR', 'DECIMAL', 'TIMESTAMP', 'BOOLEAN'];

function column(i: number): Column {
  const c: Column = { name: `col_${i}`, dataType: TYPES[i % TYPES.length]! };
  if (i % 3 === 0) c.constraint = 'NOT_NULL';
  if (i % 2 === 0) c.description = `Column number ${i} of the table.`;
  return c;
}

/** The desired (file) side of a contract with `size` columns. */
export function baseContract(size: number): DesiredContract {
  return {
    name: 'orders',
    fullyQualifiedName: 'warehouse.sales.public.orders.dataContract_orders',
    entity: { type: 'table', fullyQualifiedName: 'warehouse.sales.public.orders' },
    description: 'Orders placed in the web shop.',
    entityStatus: 'Active',
    schema: Array.from({ length: size }, (_, i) => column(i)),
    semantics: [
      { name: 'hasOwner' },
      { name: 'hasDescription', description: 'Every column is described.' },
    ],
    sla: { refreshFrequency: 'PT1H', maxLatency: 'PT15M', availability: 99.9 },
    termsOfUse: 'Internal use only.',
  };
}

/** What the catalog returns for a desired contract: the same values plus server-owned noise. */
export function liveFrom(desired: DesiredContract): Record<string, unknown> {
  const schema = (desired.schema as Column[]).map((c, i) => ({
    ...c,
    fullyQualifiedName: `${desired.entity.fullyQualifiedName}.${c.name}`,
    ordinalPosition: i + 1,
  }));
  return {
    ...structuredClone(desired),
    id: '0b7e1d7c-4a3a-4d87-9c56-2b1f5e0c9a11',
    entity: { id: '5d1c1f1e-7d4b-4a3e-8f57-8f0b6d2e4c10', ...desired.entity, name: 'orders' },
    schema,
    version: 0.3,
    updatedAt: 1_760_000_000_000,
    updatedBy: 'alice',
    href: 'http://localhost/v1/dataContracts/0b7e1d7c-4a3a-4d87-9c56-2b1f5e0c9a11',
    deleted: false,
  };
}

function withSchema(base: DesiredContract, edit: (schema: Column[]) => void): DesiredContract {
  const copy = structuredClone(base);
  edit(copy.schema as Column[]);
  return copy;
}

/** The 16 edit kinds at a given number of columns (at least 10). */
export function editCases(size: number): EditCase[] {
  const base = baseContract(size);
  const live = liveFrom(base);
  const mid = Math.floor(size / 2);
  const cases: EditCase[] = [];
  const add = (kind: string, desired: DesiredContract, minimal: Operation[]): void => {
    cases.push({ kind, live, desired, minimal });
  };
  const newColumn: Column = {
    name: 'discount',
    dataType: 'DECIMAL',
    description: 'Discount applied.',
  };

  add('no-op', structuredClone(base), []);
  add(
    'description',
    { ...structuredClone(base), description: 'Orders placed in the web shop and the app.' },
    [{ op: 'replace', path: '/description', value: 'Orders placed in the web shop and the app.' }],
  );
  add('status', { ...structuredClone(base), entityStatus: 'Deprecated' }, [
    { op: 'replace', path: '/entityStatus', value: 'Deprecated' },
  ]);
  add(
    'append column',
    withSchema(base, (s) => s.push(newColumn)),
    [{ op: 'add', path: '/schema/-', value: newColumn }],
  );
  add(
    'insert column',
    withSchema(base, (s) => s.splice(mid, 0, newColumn)),
    [{ op: 'add', path: `/schema/${mid}`, value: newColumn }],
  );
  add(
    'delete first column',
    withSchema(base, (s) => s.splice(0, 1)),
    [{ op: 'remove', path: '/schema/0' }],
  );
  add(
    'delete middle column',
    withSchema(base, (s) => s.splice(mid, 1)),
    [{ op: 'remove', path: `/schema/${mid}` }],
  );
  add(
    'swap adjacent columns',
    withSchema(base, (s) => {
      [s[mid], s[mid + 1]] = [s[mid + 1]!, s[mid]!];
    }),
    [{ op: 'move', from: `/schema/${mid + 1}`, path: `/schema/${mid}` }],
  );
  add(
    'swap distant columns',
    withSchema(base, (s) => {
      [s[1], s[size - 2]] = [s[size - 2]!, s[1]!];
    }),
    [
      { op: 'move', from: `/schema/${size - 2}`, path: '/schema/1' },
      { op: 'move', from: '/schema/2', path: `/schema/${size - 2}` },
    ],
  );
  // Another name is another column: it replaces the old one whole, so that nothing the catalog
  // added to the old one (its fullyQualifiedName, tags) stays on it.
  const renamed = { ...(base.schema as Column[])[mid]!, name: 'renamed_column' };
  add(
    'rename column',
    withSchema(base, (s) => {
      s[mid] = renamed;
    }),
    [{ op: 'replace', path: `/schema/${mid}`, value: renamed }],
  );
  const retyped = (base.schema as Column[])[mid]!.dataType === 'VARCHAR' ? 'TEXT' : 'VARCHAR';
  add(
    'change column type',
    withSchema(base, (s) => {
      s[mid] = { ...s[mid]!, dataType: retyped };
    }),
    [{ op: 'replace', path: `/schema/${mid}/dataType`, value: retyped }],
  );
  const rule = { name: 'hasTags', description: 'Every column is tagged.' };
  add(
    'append semantics rule',
    { ...structuredClone(base), semantics: [...(base.semantics as object[]), rule] },
    [{ op: 'add', path: '/semantics/-', value: rule }],
  );
  add(
    'remove semantics rule',
    { ...structuredClone(base), semantics: (base.semantics as object[]).slice(1) },
    [{ op: 'remove', path: '/semantics/0' }],
  );
  const sla = { refreshFrequency: 'P1D', maxLatency: 'PT1H', availability: 99.5 };
  add('replace SLA', { ...structuredClone(base), sla }, [
    { op: 'replace', path: '/sla', value: sla },
  ]);
  add(
    'change one SLA field',
    { ...structuredClone(base), sla: { ...(base.sla as object), availability: 99.95 } },
    [{ op: 'replace', path: '/sla/availability', value: 99.95 }],
  );
  const combined = withSchema(base, (s) => {
    s.splice(0, 1);
    s[mid] = { ...s[mid]!, dataType: s[mid]!.dataType === 'VARCHAR' ? 'TEXT' : 'VARCHAR' };
    s.push(newColumn);
  });
  combined.description = 'Orders placed in the web shop and the app.';
  combined.entityStatus = 'Deprecated';
  combined.sla = { ...(base.sla as object), availability: 99.95 };
  add('six combined', combined, [
    { op: 'replace', path: '/description', value: combined.description },
    { op: 'replace', path: '/entityStatus', value: 'Deprecated' },
    { op: 'remove', path: '/schema/0' },
    { op: 'add', path: '/schema/-', value: newColumn },
    {
      op: 'replace',
      path: `/schema/${mid}/dataType`,
      value: (combined.schema as Column[])[mid]!.dataType,
    },
    { op: 'replace', path: '/sla/availability', value: 99.95 },
  ]);
  return cases;
}
