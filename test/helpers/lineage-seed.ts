// A catalog with lineage and a contract to run, for the tests of what the catalog says back:
// orders → daily (a table bob owns) → kpis (a dashboard the team ops owns), and the contract
// on orders, which the file `orders` breaks (it drops a column) and asks to have an owner.
import { seed } from './sandbox.js';

const id = (n: number) => `6a000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const COLUMNS = [
  { name: 'id', dataType: 'BIGINT' },
  { name: 'amount', dataType: 'DECIMAL' },
];

export const lineageSeed = () =>
  seed({
    users: [
      { name: 'alice', permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'] },
      { name: 'bob', permissions: ['ViewDataContract'] },
    ],
    teams: [{ name: 'ops' }],
    assets: [
      {
        id: id(1),
        entityType: 'table',
        name: 'orders',
        fullyQualifiedName: 'db.s.orders',
        columns: COLUMNS,
      },
      {
        id: id(2),
        entityType: 'table',
        name: 'daily',
        fullyQualifiedName: 'db.s.daily',
        columns: COLUMNS,
        owners: [{ type: 'user', name: 'bob' }],
      },
      {
        id: id(3),
        entityType: 'dashboard',
        name: 'kpis',
        fullyQualifiedName: 'looker.kpis',
        owners: [{ type: 'team', name: 'ops' }],
      },
    ],
    dataProducts: [],
    dataContracts: [
      {
        id: id(50),
        name: 'orders',
        fullyQualifiedName: 'db.s.orders.dataContract_orders',
        entity: { id: id(1), type: 'table', name: 'orders', fullyQualifiedName: 'db.s.orders' },
        schema: COLUMNS,
        version: 0.1,
      },
    ],
    lineage: [
      { from: 'db.s.orders', to: 'db.s.daily' },
      { from: 'db.s.daily', to: 'looker.kpis' },
    ],
  });

/** The file of the contract on orders: it drops `amount` (a breaking change). */
export const ordersFile = {
  name: 'orders',
  fullyQualifiedName: 'db.s.orders.dataContract_orders',
  entity: { type: 'table', fullyQualifiedName: 'db.s.orders' },
  schema: [{ name: 'id', dataType: 'BIGINT' }],
};
