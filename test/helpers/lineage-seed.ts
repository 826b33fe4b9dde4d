// Catalogs with lineage, for the tests of who a breaking change reaches: tables db.s.NAME with an
// `id` and an `amount` column, dashboards looker.NAME a team owns, contracts on the tables, and
// the file that breaks such a contract (it drops `amount`). lineageSeed is one such catalog:
// orders → daily (a table bob owns) → kpis (a dashboard the team ops owns), and the contract on
// orders, which the file `orders` breaks and asks to have an owner.
import { seed } from './sandbox.js';

/** The columns of every table here. */
export const COLUMNS = [
  { name: 'id', dataType: 'BIGINT' },
  { name: 'amount', dataType: 'DECIMAL' },
];

/** Id `n` (below 100) among those that begin with `prefix` (eight hex digits). */
export const idsFrom =
  (prefix: string) =>
  (n: number): string =>
    `${prefix}-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

/** The table db.s.`name`, with COLUMNS, and its owners where given. */
export const table = (id: string, name: string, owners?: { type: string; name: string }[]) => ({
  id,
  entityType: 'table',
  name,
  fullyQualifiedName: `db.s.${name}`,
  columns: COLUMNS,
  ...(owners === undefined ? {} : { owners }),
});

/** The dashboard looker.`name`, owned by the team `team`. */
export const dashboard = (id: string, name: string, team: string) => ({
  id,
  entityType: 'dashboard',
  name,
  fullyQualifiedName: `looker.${name}`,
  owners: [{ type: 'team', name: team }],
});

/** The catalog's contract `id` on the table db.s.`name`, whose id is `tableId`. */
export const contractOn = (id: string, tableId: string, name: string) => ({
  id,
  name,
  fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
  entity: { id: tableId, type: 'table', name, fullyQualifiedName: `db.s.${name}` },
  schema: COLUMNS,
  version: 0.1,
});

/** The file of the contract on the table db.s.`name` that drops `amount` (a breaking change). */
export const droppingAmount = (name: string) => ({
  name,
  fullyQualifiedName: `db.s.${name}.dataContract_${name}`,
  entity: { type: 'table', fullyQualifiedName: `db.s.${name}` },
  schema: [{ name: 'id', dataType: 'BIGINT' }],
});

const id = idsFrom('6a000000');

export const lineageSeed = () =>
  seed({
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      { name: 'bob', permissions: ['ViewDataContract'] },
    ],
    teams: [{ name: 'ops' }],
    assets: [
      table(id(1), 'orders'),
      table(id(2), 'daily', [{ type: 'user', name: 'bob' }]),
      dashboard(id(3), 'kpis', 'ops'),
    ],
    dataProducts: [],
    dataContracts: [contractOn(id(50), id(1), 'orders')],
    lineage: [
      { from: 'db.s.orders', to: 'db.s.daily' },
      { from: 'db.s.daily', to: 'looker.kpis' },
    ],
  });

/** The file of the contract on orders: it drops `amount` (a breaking change). */
export const ordersFile = droppingAmount('orders');
