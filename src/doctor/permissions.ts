// The permissions each command needs, weighed against what OpenMetadata says the token's user may
// do (`GET /v1/permissions/{resource}`, a ResourcePermission): plan needs to view data contracts,
// apply to edit them all and create them, prune to delete them, verify to edit them all (running
// a contract needs EditAll on it), impact to view tables (their lineage). What plan and apply need
// is an error when refused; the rest are warnings. A conditional access (a rule with a condition,
// such as isOwner()) may hold for some contracts only: a warning.
import type { OperationAccess } from '../catalog/inspecting-client.js';
import type { Check } from './checks.js';

/** A command's need: on which resource, which operations (any one of `anyOf` will do). */
interface Need {
  command: string;
  resource: 'dataContract' | 'table';
  /** Each entry: operations any one of which gives it. */
  operations: readonly (readonly string[])[];
  what: string;
  required: boolean;
}

export const NEEDS: readonly Need[] = [
  {
    command: 'plan',
    resource: 'dataContract',
    operations: [['ViewAll', 'ViewBasic']],
    what: 'view data contracts',
    required: true,
  },
  {
    command: 'apply',
    resource: 'dataContract',
    operations: [['EditAll'], ['Create']],
    what: 'edit all of a data contract and create data contracts',
    required: true,
  },
  {
    command: 'prune',
    resource: 'dataContract',
    operations: [['Delete']],
    what: 'delete data contracts',
    required: false,
  },
  {
    command: 'verify',
    resource: 'dataContract',
    operations: [['EditAll']],
    what: 'edit all of a data contract, which running one needs',
    required: false,
  },
  {
    command: 'impact',
    resource: 'table',
    operations: [['ViewAll', 'ViewBasic']],
    what: 'view tables and their lineage',
    required: false,
  },
];

/** The access the user has to `operation`: allow, deny, notAllow, conditionalAllow …; notAllow when unsaid. */
function accessTo(permissions: readonly OperationAccess[], operation: string): string {
  return permissions.find((permission) => permission.operation === operation)?.access ?? 'notAllow';
}

/** The checks of the commands' needs, from the permissions on data contracts and tables. */
export function permissionChecks(
  byResource: Readonly<Record<'dataContract' | 'table', readonly OperationAccess[]>>,
): Check[] {
  return NEEDS.map((need): Check => {
    const permissions = byResource[need.resource];
    // For each needed entry, the best access any of its operations has.
    const entries = need.operations.map((anyOf) => {
      const accesses = anyOf.map((operation) => ({
        operation,
        access: accessTo(permissions, operation),
      }));
      return (
        accesses.find((a) => a.access === 'allow') ??
        accesses.find((a) => a.access === 'conditionalAllow') ??
        accesses[0]!
      );
    });
    const names = need.operations.map((anyOf) => anyOf.join(' or ')).join(' and ');
    const id = `permission.${need.command}`;
    const refused = entries.filter(
      (entry) => !['allow', 'conditionalAllow'].includes(entry.access),
    );
    if (refused.length === 0 && entries.every((entry) => entry.access === 'allow'))
      return {
        id,
        status: 'ok',
        message: `${need.command}: the token may ${need.what} (${names} on ${need.resource})`,
      };
    if (refused.length === 0)
      return {
        id,
        status: 'warning',
        message: `${need.command}: the token may ${need.what} only where a rule's condition holds (${entries.map((e) => `${e.operation}: ${e.access}`).join(', ')} on ${need.resource}), so some may be refused`,
        fix: `give the user a role whose policy allows ${names} on ${need.resource} without a condition`,
      };
    return {
      id,
      status: need.required ? 'error' : 'warning',
      message: `${need.command}: the token may not ${need.what}: it lacks ${refused.map((e) => `${e.operation} (${e.access})`).join(' and ')} on ${need.resource}`,
      fix: `ask an admin to give the token's user a role whose policy allows ${names} on ${need.resource}`,
    };
  });
}
