// OpenMetadata's RuleEngine, as the sandbox plays it: a data asset rule (or a contract's semantics
// rule) is JSON Logic, which the server runs with json-logic-java and the operations its LogicOps
// adds; the rule holds only when it gives the Boolean true (`validateRule`). Here json-logic-js
// runs the JSON Logic, and the operations below are written from LogicOps and JsonLogicUtils of
// OpenMetadata 1.12.6, not shared with the tool's planner (src/profile/openmetadata-rules.ts):
// the sandbox plays the server so that tests can catch the planner's mistakes, which a shared
// engine would make on both sides (README.md, "The rule engine").
import jsonLogic from 'json-logic-js';
import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

/**
 * CommonUtil.nullOrEmpty as LogicOps calls it on an argument, whose static type is Object: null,
 * or a value whose toString() is empty. An empty list or object prints `[]` or `{}`.
 */
function nothing(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/**
 * An operation added with `addOperation(name, args -> ...)` is a PreEvaluatedArgumentsExpression:
 * it gets the evaluated arguments, except that a lone list is spread into them
 * (`{"length": {"var": "owners"}}` gets the owners).
 */
function preEvaluated(operation: (args: unknown[]) => unknown) {
  return (...values: unknown[]): unknown =>
    operation(values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values);
}

/** `args[index]`, failing as Java's array access does past the end. */
function argument(args: unknown[], index: number): unknown {
  if (index >= args.length)
    throw new RangeError(`Index ${index} out of bounds for length ${args.length}`);
  return args[index];
}

/** A `(String)` cast: null stays null, anything but a string fails. */
function asString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new TypeError(`${typeof value} cannot be cast to String`);
  return value;
}

/**
 * Jackson's convertValue to a List of references or tag labels: null is null, a list of objects
 * is the list; anything else (a lone object, an item that is not an object) fails.
 */
function objects(value: unknown): Json[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new TypeError('cannot convert a value that is not a list');
  return value.map((item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new TypeError('cannot convert an item that is not an object');
    return item as Json;
  });
}

/** A TagLabel's source, which must be one of TagSource's values. */
function tagSource(tag: Json): string {
  if (tag.source !== 'Classification' && tag.source !== 'Glossary')
    throw new TypeError(`not a TagSource: ${String(tag.source)}`);
  return tag.source;
}

/**
 * `isOwner` and `isReviewer` (JsonLogicUtils.evaluateUserInRole): whether the one argument, a
 * user's name, is among the entity's owners or reviewers as a user. The server also looks at the
 * teams the user is in; the sandbox's users are in none.
 */
function userInRole(role: 'owners' | 'reviewers') {
  return function (this: unknown, ...values: unknown[]): boolean {
    if (values.length !== 1 || typeof values[0] !== 'string') return false;
    if (this === null || typeof this !== 'object' || Array.isArray(this)) return false;
    const references = objects((this as Json)[role]);
    if (references === null) return false;
    return references.some((ref) => ref.type === 'user' && ref.name === values[0]);
  };
}

/** `isUpdatedBefore` and `isUpdatedAfter`: the entity's updatedAt against the one argument. */
function updated(compare: (updatedAt: number, timestamp: number) => boolean) {
  return function (this: unknown, ...values: unknown[]): boolean {
    if (values.length !== 1 || values[0] === null || values[0] === undefined) return false;
    if (this === null || typeof this !== 'object' || Array.isArray(this)) return false;
    const updatedAt = (this as Json).updatedAt;
    if (typeof updatedAt !== 'number') return false;
    if (typeof values[0] !== 'number') throw new TypeError('the timestamp is not a Number');
    return compare(Math.trunc(updatedAt), Math.trunc(values[0]));
  };
}

/** LogicOps.addCustomOps: the public operations, then the private ones. */
const OPERATIONS: Readonly<Record<string, (this: unknown, ...values: unknown[]) => unknown>> = {
  length: preEvaluated((args) => args.length),
  contains: preEvaluated((args) => {
    if (args.length < 2) return false;
    const [value, container] = args;
    if (nothing(value) || nothing(container)) return false;
    if (Array.isArray(container)) return container.some((item) => isDeepStrictEqual(item, value));
    const text = (item: unknown): string =>
      typeof item === 'string' ? item : (JSON.stringify(item) ?? '');
    return text(container).includes(text(value));
  }),
  isReviewer: userInRole('reviewers'),
  isOwner: userInRole('owners'),
  isUpdatedBefore: updated((updatedAt, timestamp) => updatedAt < timestamp),
  isUpdatedAfter: updated((updatedAt, timestamp) => updatedAt > timestamp),
  multipleUsersOrSingleTeamOwnership: preEvaluated((args) => {
    if (args.every(nothing)) return true;
    const owners = objects(args) ?? [];
    const teams = owners.filter((owner) => owner.type === 'team').length;
    return !(teams > 1 || (teams > 0 && owners.length - teams > 0));
  }),
  // The server looks up each data product's domains, and skips one that has none: the sandbox's
  // data products have none.
  validateDataProductDomainMatch: preEvaluated((args) => {
    if (args.length < 2) return true;
    const products = objects(args[0]) ?? [];
    const domains = objects(args[1]) ?? [];
    if (products.length === 0) return true;
    return domains.length > 0;
  }),
  filterReferenceByType: preEvaluated((args) => {
    const type = asString(argument(args, 1));
    if (nothing(args[0]) || type === null || type === '') return [];
    return (objects(args[0]) ?? []).filter((ref) => ref.type === type);
  }),
  filterTagsBySource: preEvaluated((args) => {
    const source = asString(argument(args, 1));
    if (nothing(args[0]) || source === null || source === '') return [];
    return (objects(args[0]) ?? []).filter((tag) => tagSource(tag) === source);
  }),
};

// json-logic-js keeps its operations in the module: they are added once, for every rule this
// process runs with it (none but the sandbox's).
for (const [name, operation] of Object.entries(OPERATIONS))
  jsonLogic.add_operation(name, operation);

/**
 * Whether `rule` (JSON Logic text) holds for `entity` (the entity as the server loads it): it
 * gives true. A rule that is not JSON, uses an operation the server lacks, or fails in one of its
 * operations is broken, as `validateRule` counts a JsonLogicException. (A failure inside one of
 * the server's own operations escapes `validateRule` there; the sandbox counts it broken too.)
 */
export function ruleHolds(rule: string, entity: Readonly<Json>): boolean {
  try {
    return jsonLogic.apply(JSON.parse(rule) as jsonLogic.RulesLogic, entity) === true;
  } catch {
    return false;
  }
}
