// One OpenMetadata data asset rule weighed against one entity, as the server's RuleEngine weighs
// it: the rule is JSON Logic (run by json-logic-java there, here by src/policy/json-logic.ts,
// which follows json-logic-js) with the operations OpenMetadata adds (`LogicOps`): `length`, and
// the ones its own rules use, `multipleUsersOrSingleTeamOwnership`, `filterReferenceByType`,
// `filterTagsBySource` and `validateDataProductDomainMatch`. A rule holds only when it gives
// `true`. The plan weighs rules here to foresee the catalog's answer; the sandbox, which gives
// it, runs them with its own engine (packages/sandbox/src/rule-engine.ts), so that a mistake here
// shows as a disagreement (test/asset-rules.unit.test.ts). The catalog's rules are input this tool
// does not control: they run within the bounds of the team's own rules (its size and depth, and
// the steps of one evaluation), and a rule past them is `bounded`, never a hang.
import {
  evaluate,
  knownOperations,
  LogicBudgetError,
  ruleProblem,
  usesData,
  type Operation,
} from '../policy/json-logic.js';

/**
 * The arguments an operation added to json-logic-java gets: the evaluated ones, except that a
 * lone list is spread into them (`{"length": {"var": "owners"}}` gets the owners).
 */
function spread(values: unknown[]): unknown[] {
  return values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
}

/** OpenMetadata's `CommonUtil.nullOrEmpty` of one value. */
function nullOrEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** The items of `list` whose `key` is `wanted`: `[]` when either is missing. */
function itemsWith(list: unknown, key: string, wanted: unknown): unknown[] {
  if (nullOrEmpty(list) || typeof wanted !== 'string' || wanted === '') return [];
  const items = Array.isArray(list) ? list : [list];
  return items.filter((item) => (item as Record<string, unknown> | null)?.[key] === wanted);
}

/**
 * The index of the first owner that breaks the ownership rule (a second team, or a user beside a
 * team, or a team beside users), or -1 when the owners keep it.
 */
export function ownerBreakingRule(owners: unknown): number {
  if (!Array.isArray(owners)) return -1;
  let teams = 0;
  let users = 0;
  for (const [index, owner] of (owners as { type?: unknown }[]).entries()) {
    if (owner?.type === 'team') teams += 1;
    else users += 1;
    if (teams > 1 || (teams > 0 && users > 0)) return index;
  }
  return -1;
}

/** The operations OpenMetadata adds to JSON Logic (`LogicOps`), as it runs them. */
const OPENMETADATA_OPERATIONS: Readonly<Record<string, Operation>> = {
  length: (...values) => spread(values).length,
  multipleUsersOrSingleTeamOwnership: (...values) => {
    const owners = spread(values);
    return owners.every(nullOrEmpty) || ownerBreakingRule(owners) === -1;
  },
  filterReferenceByType: (...values) =>
    values.length === 0 ? false : itemsWith(values[0], 'type', values[1]),
  filterTagsBySource: (...values) => itemsWith(values[0], 'source', values[1]),
  // The default rule "Data Product Domain Validation": an entity's data products are in its
  // domains. It holds for an entity without data products, as a data contract always is; the
  // domains of data products are the catalog's to look up, so a rule over some cannot be weighed.
  validateDataProductDomainMatch: (...values) => {
    if (nullOrEmpty(values[0])) return true;
    throw new Error(
      "validateDataProductDomainMatch needs the domains of the entity's data products",
    );
  },
};
const KNOWN = knownOperations(OPENMETADATA_OPERATIONS);

/**
 * How a rule came out: it holds, it is broken, it could not be weighed here (and why), or it is
 * past the bounds every rule is run within (its size, its depth, or the steps of one evaluation).
 */
export type RuleOutcome = 'holds' | 'broken' | { unweighed: string } | { bounded: string };

type Read = { logic: unknown } | { unweighed: string } | { bounded: string };

/** Rules read once a process: a plan weighs the same few rules on every contract, twice. */
const parsed = new Map<string, Read>();

/** The JSON Logic of `rule`, or why it is not JSON Logic, or why it is not run. */
function logicOf(rule: string): Read {
  let found = parsed.get(rule);
  if (found === undefined) {
    try {
      const logic = JSON.parse(rule) as unknown;
      const problem = ruleProblem(logic, KNOWN);
      found =
        problem === undefined
          ? { logic }
          : problem.unknown !== undefined
            ? { unweighed: `Unrecognized operation ${problem.unknown}` }
            : { bounded: problem.message };
    } catch (error) {
      found = { unweighed: `its rule is not JSON (${(error as Error).message})` };
    }
    parsed.set(rule, found);
  }
  return found;
}

/** `value` as JSON, cut to a few words: a rule's result may be anything the catalog holds. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** How `rule` (JSON Logic text) comes out for `entity` (the entity as the catalog holds it). */
export function weighRule(rule: string, entity: Readonly<Record<string, unknown>>): RuleOutcome {
  const read = logicOf(rule);
  if (!('logic' in read)) return read;
  let result: unknown;
  try {
    result = evaluate(read.logic, entity, OPENMETADATA_OPERATIONS);
  } catch (error) {
    if (LogicBudgetError.is(error)) return { bounded: error.message };
    return { unweighed: (error as Error).message };
  }
  if (result === true) return 'holds';
  if (result === false || result === null || result === undefined) return 'broken';
  return { unweighed: `it gives ${shown(result)}, not true or false` };
}

/** The top-level fields `rule` reads (`owners` for `{"var": "owners.0.type"}`), in its order. */
export function fieldsRead(rule: string): string[] {
  const read = logicOf(rule);
  if (!('logic' in read) || read.logic === null || typeof read.logic !== 'object') return [];
  const names = usesData(read.logic)
    .map((name: unknown) => String(name).split('.')[0]!)
    .filter((name: string) => name !== '');
  return [...new Set<string>(names)];
}
