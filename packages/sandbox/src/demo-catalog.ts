// The built-in demo catalog, served when `sandbox serve` gets no --seed. Its live contracts
// match the files in contracts/ except for a few deliberate differences, so that the demo's
// first plan has real changes (one of them breaking) and its last plan has none.
import { createHash } from 'node:crypto';
import { PERMISSIONS, type ContractResource, type Seed, type SeedAsset } from './seed.js';

/** A stable UUID derived from a name, so the demo catalog is the same on every start. */
function stableId(name: string): string {
  const hex = createHash('sha256').update(`contracts-demo:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

type Column = { name: string; dataType: string; description?: string };

const TABLES: Record<string, Record<string, Column[]>> = {
  'warehouse.sales.public': {
    orders: [
      { name: 'order_id', dataType: 'BIGINT' },
      { name: 'customer_id', dataType: 'BIGINT' },
      { name: 'status', dataType: 'VARCHAR' },
      { name: 'amount', dataType: 'DECIMAL' },
      { name: 'currency', dataType: 'CHAR' },
      { name: 'placed_at', dataType: 'TIMESTAMP' },
      { name: 'updated_at', dataType: 'TIMESTAMP' },
    ],
    customers: [
      { name: 'customer_id', dataType: 'BIGINT' },
      { name: 'email', dataType: 'VARCHAR' },
      { name: 'phone', dataType: 'VARCHAR' },
      { name: 'country', dataType: 'CHAR' },
      { name: 'created_at', dataType: 'TIMESTAMP' },
    ],
    order_items: [
      { name: 'order_id', dataType: 'BIGINT' },
      { name: 'line_no', dataType: 'INT' },
      { name: 'product_id', dataType: 'BIGINT' },
      { name: 'quantity', dataType: 'INT' },
    ],
    refunds: [
      { name: 'refund_id', dataType: 'BIGINT' },
      { name: 'order_id', dataType: 'BIGINT' },
      { name: 'amount', dataType: 'DECIMAL' },
      { name: 'refunded_at', dataType: 'TIMESTAMP' },
    ],
  },
  'warehouse.sales.marts': {
    daily_revenue: [
      { name: 'day', dataType: 'DATE' },
      { name: 'country', dataType: 'CHAR' },
      { name: 'currency', dataType: 'CHAR' },
      { name: 'revenue', dataType: 'DECIMAL' },
      { name: 'orders', dataType: 'BIGINT' },
    ],
  },
  'warehouse.finance.ledger': {
    payments: [
      { name: 'payment_id', dataType: 'VARCHAR' },
      { name: 'order_id', dataType: 'BIGINT' },
      { name: 'amount', dataType: 'DECIMAL' },
      { name: 'captured_at', dataType: 'TIMESTAMP' },
      { name: 'provider', dataType: 'VARCHAR' },
    ],
  },
};

const MORE_TABLES: Record<string, string[]> = {
  'warehouse.sales.public': [
    'carts',
    'cart_items',
    'products',
    'product_prices',
    'promotions',
    'coupons',
    'shipments',
    'returns',
  ],
  'warehouse.finance.ledger': [
    'invoices',
    'invoice_lines',
    'payouts',
    'fx_rates',
    'tax_rates',
    'chargebacks',
    'refunds_ledger',
  ],
  'warehouse.marketing.public': [
    'campaigns',
    'campaign_clicks',
    'email_sends',
    'email_opens',
    'segments',
    'segment_members',
    'attribution',
    'ad_spend',
    'landing_pages',
    'utm_sources',
  ],
};

const PRODUCT_MEMBERS = new Set([
  'warehouse.sales.public.orders',
  'warehouse.sales.public.customers',
  'warehouse.sales.public.order_items',
  'warehouse.sales.public.refunds',
]);

function table(schemaFqn: string, name: string, columns: Column[]): SeedAsset {
  const [service, database, schema] = schemaFqn.split('.') as [string, string, string];
  const fqn = `${schemaFqn}.${name}`;
  return {
    id: stableId(fqn),
    entityType: 'table',
    name,
    fullyQualifiedName: fqn,
    serviceType: 'Postgres',
    service: { name: service },
    database: { name: database },
    databaseSchema: { name: schema },
    description: `The ${name.replace(/_/g, ' ')} table.`,
    columns: columns.map((column) => ({ ...column, fullyQualifiedName: `${fqn}.${column.name}` })),
    tags: [{ tagFQN: database === 'sales' && name === 'customers' ? 'PII.Sensitive' : 'PII.None' }],
    owners: [{ type: 'team', name: `${database}-data` }],
    ...(PRODUCT_MEMBERS.has(fqn) ? { dataProducts: ['sales-analytics'] } : {}),
  };
}

/** A live contract as the catalog stores it, with the server's own fields. */
function contract(
  assetFqn: string,
  entityType: string,
  name: string,
  version: number,
  body: Record<string, unknown>,
): ContractResource {
  const fqn = `${assetFqn}.dataContract_${name}`;
  const id = stableId(fqn);
  const schema = Array.isArray(body.schema)
    ? (body.schema as Record<string, unknown>[]).map((column, i) => ({
        ...column,
        fullyQualifiedName: `${assetFqn}.${String(column.name)}`,
        ordinalPosition: i + 1,
      }))
    : undefined;
  return {
    id,
    name,
    fullyQualifiedName: fqn,
    entity: {
      id: entityType === 'dataProduct' ? stableId(`product:${assetFqn}`) : stableId(assetFqn),
      type: entityType,
      name: assetFqn.split('.').pop()!,
      fullyQualifiedName: assetFqn,
    },
    ...body,
    ...(schema === undefined ? {} : { schema }),
    version,
    updatedAt: 1_761_000_000_000 + Math.round(version * 1000) * 1000,
    updatedBy: 'alice',
    href: `http://localhost/v1/dataContracts/${id}`,
  };
}

export function demoSeed(): Seed {
  const assets: SeedAsset[] = [];
  for (const [schemaFqn, tables] of Object.entries(TABLES)) {
    for (const [name, columns] of Object.entries(tables))
      assets.push(table(schemaFqn, name, columns));
  }
  for (const [schemaFqn, names] of Object.entries(MORE_TABLES)) {
    for (const name of names) {
      assets.push(
        table(schemaFqn, name, [
          { name: 'id', dataType: 'BIGINT' },
          { name: 'created_at', dataType: 'TIMESTAMP' },
        ]),
      );
    }
  }
  assets.push({
    id: stableId('events.web.clickstream'),
    entityType: 'topic',
    name: 'clickstream',
    fullyQualifiedName: 'events.web.clickstream',
    serviceType: 'Kafka',
    service: { name: 'events' },
    description: 'Page views and clicks from the web shop.',
    columns: ['event_id', 'session_id', 'event_type', 'occurred_at', 'page_url'].map((name) => ({
      name,
      dataType: name === 'occurred_at' ? 'TIMESTAMP' : 'STRING',
      fullyQualifiedName: `events.web.clickstream.${name}`,
    })),
    tags: [{ tagFQN: 'PII.None' }],
    owners: [{ type: 'team', name: 'web-data' }],
  });
  // What reads the orders and customers (a mart, and a dashboard on it), so that a breaking change
  // in the demo shows its consumers.
  assets.push({
    id: stableId('bi.sales_overview'),
    entityType: 'dashboard',
    name: 'sales_overview',
    fullyQualifiedName: 'bi.sales_overview',
    serviceType: 'Superset',
    service: { name: 'bi' },
    description: 'Revenue and orders by day and country, for the sales team.',
    tags: [{ tagFQN: 'PII.None' }],
    owners: [{ type: 'team', name: 'sales-data' }],
  });

  const dataContracts: ContractResource[] = [
    // Differs from contracts/orders.yaml: Draft instead of Active, no currency column, a lower
    // SLA availability and no owners.
    contract('warehouse.sales.public.orders', 'table', 'orders', 0.3, {
      description:
        'Orders placed in the web shop, one row per order, loaded hourly from the shop database.',
      entityStatus: 'Draft',
      schema: [
        {
          name: 'order_id',
          dataType: 'BIGINT',
          constraint: 'PRIMARY_KEY',
          description: 'Surrogate key of the order.',
        },
        {
          name: 'customer_id',
          dataType: 'BIGINT',
          constraint: 'NOT_NULL',
          description: 'The customer who placed the order (customers.customer_id).',
        },
        {
          name: 'status',
          dataType: 'VARCHAR',
          dataLength: 32,
          constraint: 'NOT_NULL',
          description: 'placed, paid, shipped, delivered or cancelled.',
        },
        {
          name: 'amount',
          dataType: 'DECIMAL',
          precision: 12,
          scale: 2,
          constraint: 'NOT_NULL',
          description: "Order total in the order's currency, tax included.",
        },
        { name: 'placed_at', dataType: 'TIMESTAMP', constraint: 'NOT_NULL' },
      ],
      semantics: [
        {
          name: 'hasOwner',
          description: 'Every order table has an owner to page when it breaks.',
          entityType: 'table',
        },
        { name: 'hasDescription', entityType: 'table' },
      ],
      sla: { refreshFrequency: 'PT1H', maxLatency: 'PT15M', availability: 99.5 },
      termsOfUse: 'Internal use only. Do not export order-level data outside the company.\n',
      latestResult: { status: 'Success', timestamp: 1_761_000_000_000 },
    }),
    // Differs from contracts/customers.yaml: still lists the phone column (the file drops it, a
    // breaking change) and lacks the hasDescription rule.
    contract('warehouse.sales.public.customers', 'table', 'customers', 1.2, {
      description: 'Registered customers of the web shop. Personal data; see the security section.',
      entityStatus: 'Active',
      schema: [
        { name: 'customer_id', dataType: 'BIGINT', constraint: 'PRIMARY_KEY' },
        {
          name: 'email',
          dataType: 'VARCHAR',
          dataLength: 320,
          constraint: 'UNIQUE',
          description: 'Login e-mail address (personal data).',
        },
        { name: 'phone', dataType: 'VARCHAR', description: 'Phone number (personal data).' },
        {
          name: 'country',
          dataType: 'CHAR',
          dataLength: 2,
          description: 'ISO 3166-1 alpha-2 country of the billing address.',
        },
        { name: 'created_at', dataType: 'TIMESTAMP', constraint: 'NOT_NULL' },
      ],
      semantics: [{ name: 'hasOwner', entityType: 'table' }],
      sla: { refreshFrequency: 'P1D', availability: 99.5 },
      security: { dataClassification: 'Confidential', accessPolicy: 'pii-restricted' },
      termsOfUse: 'Personal data. Access is logged; use only for order fulfilment and support.\n',
    }),
    // Same as contracts/payments.yaml.
    contract('warehouse.finance.ledger.payments', 'table', 'payments', 0.5, {
      description:
        'Captured card and bank payments, reconciled nightly against the payment provider.',
      entityStatus: 'Active',
      schema: [
        {
          name: 'payment_id',
          dataType: 'VARCHAR',
          dataLength: 64,
          constraint: 'PRIMARY_KEY',
          description: "Payment provider's id.",
        },
        { name: 'order_id', dataType: 'BIGINT', constraint: 'NOT_NULL' },
        { name: 'amount', dataType: 'DECIMAL', precision: 12, scale: 2, constraint: 'NOT_NULL' },
        { name: 'captured_at', dataType: 'TIMESTAMP', constraint: 'NOT_NULL' },
      ],
      semantics: [{ name: 'hasOwner' }],
      sla: { refreshFrequency: 'P1D', availability: 99.0 },
      qualityExpectations: [
        {
          id: stableId('tc:amount_is_positive'),
          type: 'testCase',
          name: 'amount_is_positive',
          fullyQualifiedName: 'warehouse.finance.ledger.payments.amount.amount_is_positive',
        },
        {
          id: stableId('tc:payment_id_is_unique'),
          type: 'testCase',
          name: 'payment_id_is_unique',
          fullyQualifiedName: 'warehouse.finance.ledger.payments.payment_id.payment_id_is_unique',
        },
      ],
      owners: [
        {
          id: stableId('team:finance-data'),
          type: 'team',
          name: 'finance-data',
          fullyQualifiedName: 'finance-data',
        },
      ],
      reviewers: [
        { id: stableId('user:alice'), type: 'user', name: 'alice', fullyQualifiedName: 'alice' },
      ],
    }),
    // Same as contracts/clickstream.yaml.
    contract('events.web.clickstream', 'topic', 'clickstream', 0.2, {
      description:
        'Page views and clicks from the web shop, one message per event, keyed by session.',
      entityStatus: 'Active',
      schema: [
        { name: 'event_id', dataType: 'STRING', constraint: 'NOT_NULL' },
        { name: 'session_id', dataType: 'STRING', constraint: 'NOT_NULL' },
        { name: 'event_type', dataType: 'STRING' },
        { name: 'occurred_at', dataType: 'TIMESTAMP', constraint: 'NOT_NULL' },
      ],
      sla: { maxLatency: 'PT5M', availability: 99.0 },
      termsOfUse: 'Pseudonymous behavioural data; do not join with customers without approval.',
    }),
    // Differs from contracts/sales-analytics.yaml in its terms of use.
    contract('sales-analytics', 'dataProduct', 'sales-analytics', 0.4, {
      description: 'Contract every table of the sales-analytics data product is held to.',
      entityStatus: 'Active',
      semantics: [{ name: 'hasOwner' }, { name: 'hasDescription' }],
      sla: { refreshFrequency: 'P1D', availability: 99.0 },
      termsOfUse: 'Sales analytics data. Internal use only.\n',
    }),
  ];

  return {
    users: [
      {
        name: 'alice',
        permissions: [...PERMISSIONS],
      },
      {
        name: 'ci-bot',
        permissions: [...PERMISSIONS],
      },
      // A data steward, who edits contracts in the catalog (its UI) but deletes none.
      {
        name: 'maria.garcia',
        permissions: ['ViewDataContract', 'EditDataContract', 'SearchEntities'],
      },
      { name: 'bob', permissions: ['ViewDataContract', 'SearchEntities'] },
      { name: 'carol', permissions: ['SearchEntities'] },
      // OpenMetadata's admin role: may do everything, defining custom properties included.
      { name: 'admin', admin: true, permissions: [] },
    ],
    assets,
    dataProducts: [
      {
        // A data product's id is a UUID, in its search document too, as on a real server.
        id: stableId('product:sales-analytics'),
        name: 'sales-analytics',
        description: 'Orders, customers and payments of the web shop, for the sales team.',
        owners: [{ type: 'team', name: 'sales-data' }],
        contract: 'sales-analytics.dataContract_sales-analytics',
      },
    ],
    dataContracts,
    lineage: [
      { from: 'warehouse.sales.public.orders', to: 'warehouse.sales.marts.daily_revenue' },
      { from: 'warehouse.sales.public.customers', to: 'warehouse.sales.marts.daily_revenue' },
      { from: 'warehouse.sales.marts.daily_revenue', to: 'bi.sales_overview' },
    ],
    // Where contracts-gitops marks the contracts a repository manages (its --prune), as a team
    // would define it through the types API (`contracts doctor --fix` with an admin's token).
    customProperties: [
      {
        name: 'managedBy',
        description: 'The repository and file that manage this contract (contracts-gitops).',
      },
    ],
  };
}
