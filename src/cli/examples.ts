// The examples each command's --help ends with: the commands a person runs most, as they type
// them (a test checks that each names only options its command has).

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  validate: ['contracts validate', 'contracts validate contracts/orders.yaml --format github'],
  plan: [
    'contracts plan',
    'contracts plan --out .contracts/plan.json',
    'contracts plan --changed-since origin/main --markdown',
    'contracts plan --detailed-exitcode   # exit 2 when there are changes',
    'contracts plan --prune   # also the contracts whose files are gone',
    'contracts plan --fail-on breaking-with-consumers',
  ],
  drift: ['contracts drift', 'contracts drift --format markdown'],
  show: ['contracts show .contracts/plan.json', 'contracts show .contracts/plan.json --json'],
  apply: [
    'contracts apply .contracts/plan.json',
    'contracts apply   # plan, confirm with yes, apply',
    'contracts apply --auto-approve contracts/orders.yaml',
    'contracts apply --auto-approve --verify   # then run each contract on its data',
    'contracts apply .contracts/plan.json --auto-approve --prune   # its deletions too',
  ],
  restore: [
    'contracts restore warehouse.sales.public.orders.dataContract_orders',
    'contracts restore warehouse.sales.public.orders.dataContract_orders --json',
  ],
  verify: ['contracts verify', 'contracts verify contracts/orders.yaml --json'],
  new: ['contracts new --entity table:warehouse.sales.public.order_items'],
  import: [
    'contracts import --fqn warehouse.sales.public.orders.dataContract_orders',
    'contracts import --entity table:warehouse.sales.public.orders --out contracts/sales',
    'contracts import --format odcs --fqn warehouse.sales.public.orders.dataContract_orders',
  ],
  export: [
    'contracts export --format odcs',
    'contracts export --format odcs contracts/orders.yaml --out odcs',
  ],
  coverage: ['contracts coverage', 'contracts coverage --database warehouse.sales --markdown'],
  doctor: [
    'contracts doctor',
    'contracts doctor --json',
    "contracts doctor --fix   # with an admin's token: define managedBy",
  ],
};

/** The text after a command's help: its examples, and where every flag is told. */
export function examplesText(command: string): string | undefined {
  const examples = EXAMPLES[command];
  if (examples === undefined) return undefined;
  return `\nExamples:\n${examples.map((example) => `  $ ${example}`).join('\n')}\n\nEvery command and flag: docs/commands.md (in the package, or the repository).\n`;
}
