// JSON Logic (jsonlogic.com), run with bounds: the team's rules (`policies:` of .contracts.yaml,
// from a pull request) and the catalog's data asset rules are both hostile input. A rule is
// checked before it runs — its size and depth, and every operation against the set it may use —
// and each evaluation has a budget of steps, so that no rule, over any data, runs long or builds
// much: one step for each operation applied and each item `map`, `filter`, `reduce`, `all`,
// `some` and `none` visit, and, for each value an operation is given, its size (a list's items
// and theirs, an object's keys, a string's length by the 64 characters), which is what reading,
// copying, comparing or printing it costs. It follows json-logic-js's semantics operation by
// operation (the library the rules were run by before), without `log` (which would print a
// rule's text to the run's log).

/** The deepest a rule may nest (objects and arrays), and the most values it may hold. */
export const MAX_RULE_DEPTH = 32;
export const MAX_RULE_NODES = 1000;
/** The steps one evaluation may take (see above). */
export const LOGIC_BUDGET = 100_000;

/** An operation beside JSON Logic's own: given the evaluated arguments, with `this` the data. */
export type Operation = (this: unknown, ...values: unknown[]) => unknown;

const BUDGET_SPENT = Symbol.for('contracts-gitops.logic-budget-spent');

/** An evaluation that ran out of its budget. */
export class LogicBudgetError extends Error {
  readonly [BUDGET_SPENT] = true;
  constructor(readonly budget: number) {
    super(
      `it needs more than ${budget.toLocaleString('en-US')} steps to evaluate, the limit of one evaluation`,
    );
  }

  /**
   * Whether `error` is one: by a mark, not by its class, since the build may bundle this module
   * into more than one command's code (the policies compiled by one, checked by another).
   */
  static is(error: unknown): error is LogicBudgetError {
    return typeof error === 'object' && error !== null && BUDGET_SPENT in error;
  }
}

/** JSON Logic's truthiness: an empty array is false. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0 ? false : Boolean(value);
}

/** Whether `logic` is an operation: an object of exactly one key. */
function isLogic(logic: unknown): logic is Record<string, unknown> {
  return (
    typeof logic === 'object' &&
    logic !== null &&
    !Array.isArray(logic) &&
    Object.keys(logic).length === 1
  );
}

function varOf(data: unknown, path: unknown, fallback: unknown): unknown {
  const notFound = fallback === undefined ? null : fallback;
  if (path === undefined || path === '' || path === null) return data;
  let here = data;
  // As json-logic-js reads it: a list ["a"] is the path "a".
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  const text = String(path);
  for (const key of text.split('.')) {
    if (here === null || here === undefined) return notFound;
    // Own properties only: `constructor` or `__proto__` of a value is not data.
    here = Object.hasOwn(Object(here) as object, key)
      ? (here as Record<string, unknown>)[key]
      : undefined;
    if (here === undefined) return notFound;
  }
  return here;
}

const parse = (value: unknown) => parseFloat(value as string);

/** A whole number as String.prototype.substr takes one (NaN as 0). */
const whole = (value: unknown): number => Math.trunc(Number(value)) || 0;

/** String.prototype.substr (deprecated, so written out): `length` characters from `start`. */
function substr(text: string, start: unknown, length?: unknown): string {
  const from = whole(start) < 0 ? Math.max(text.length + whole(start), 0) : whole(start);
  const count = length === undefined ? text.length : Math.max(whole(length), 0);
  return from >= text.length ? '' : text.slice(from, from + Math.min(count, text.length - from));
}

/** JSON Logic's operations on evaluated arguments, as json-logic-js has them (without `log`). */
const STANDARD: Readonly<Record<string, Operation>> = {
  '==': (a, b) => a == b,
  '===': (a, b) => a === b,
  '!=': (a, b) => a != b,
  '!==': (a, b) => a !== b,
  '>': (a, b) => (a as number) > (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
  '<': (a, b, c) =>
    c === undefined
      ? (a as number) < (b as number)
      : (a as number) < (b as number) && (b as number) < (c as number),
  '<=': (a, b, c) =>
    c === undefined
      ? (a as number) <= (b as number)
      : (a as number) <= (b as number) && (b as number) <= (c as number),
  '!!': (a) => truthy(a),
  '!': (a) => !truthy(a),
  '%': (a, b) => (a as number) % (b as number),
  in: (a, b) =>
    typeof b === 'string' || Array.isArray(b) ? (b as unknown[]).indexOf(a) !== -1 : false,
  cat: (...values) => values.join(''),
  substr: (source, start, end) => {
    if ((end as number) < 0) {
      const rest = substr(String(source), start);
      return substr(rest, 0, rest.length + (end as number));
    }
    return substr(String(source), start, end);
  },
  '+': (...values) => values.reduce<number>((sum, value) => sum + parse(value), 0),
  '*': (...values) =>
    values.length === 0
      ? undefined
      : values.reduce((product, value) => parse(product) * parse(value)),
  '-': (a, b) => (b === undefined ? -(a as number) : (a as number) - (b as number)),
  '/': (a, b) => (a as number) / (b as number),
  min: (...values) => Math.min(...(values as number[])),
  max: (...values) => Math.max(...(values as number[])),
  merge: (...values) => values.reduce<unknown[]>((all, value) => all.concat(value), []),
  var: function (this: unknown, path, fallback) {
    return varOf(this, path, fallback);
  },
  missing: function (this: unknown, ...values) {
    const keys = Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
    return keys.filter((key) => {
      // json-logic-js reads each as `{"var": key}`: a list is var's arguments.
      const value = Array.isArray(key) ? varOf(this, key[0], key[1]) : varOf(this, key, undefined);
      return value === null || value === '';
    });
  },
  missing_some: function (this: unknown, needed, options) {
    // As json-logic-js runs `{"missing": options}`: a list is missing's arguments.
    const missing = STANDARD.missing!.apply(
      this,
      Array.isArray(options) ? (options as unknown[]) : [options],
    ) as unknown[];
    const given = (Object(options) as { length?: unknown }).length as number;
    return given - missing.length >= (needed as number) ? [] : missing;
  },
};

/** The operations that take their arguments unevaluated: the conditions and the iterations. */
const CONTROL = ['if', '?:', 'and', 'or', 'filter', 'map', 'reduce', 'all', 'none', 'some'];

/** Every operation a rule may use: JSON Logic's own, and `extra` beside them. */
export function knownOperations(extra: Readonly<Record<string, Operation>> = {}): Set<string> {
  return new Set([...CONTROL, ...Object.keys(STANDARD), ...Object.keys(extra)]);
}

/** What is wrong with a rule before it runs, and where (the keys and indexes down to it). */
export interface RuleProblem {
  at: (string | number)[];
  message: string;
  /** The operation not known, when that is the problem. */
  unknown?: string;
}

/**
 * The first problem of `rule`: deeper than MAX_RULE_DEPTH, more than MAX_RULE_NODES values, or an
 * operation not in `known`; undefined when it has none.
 */
export function ruleProblem(rule: unknown, known: ReadonlySet<string>): RuleProblem | undefined {
  let nodes = 0;
  let found: RuleProblem | undefined;
  const walk = (value: unknown, at: (string | number)[], depth: number): void => {
    if (found !== undefined) return;
    nodes += 1;
    if (nodes > MAX_RULE_NODES) {
      found = {
        at: [],
        message: `the rule holds more than ${MAX_RULE_NODES} values, the limit of a rule; split it or make it simpler`,
      };
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (depth > MAX_RULE_DEPTH) {
      found = {
        at,
        message: `the rule nests deeper than ${MAX_RULE_DEPTH} levels here, the limit of a rule; make it flatter`,
      };
      return;
    }
    if (isLogic(value)) {
      const op = Object.keys(value)[0]!;
      if (!known.has(op)) {
        found = {
          at: [...at, op],
          message: `unknown operation ${op}: a rule may use the operations of JSON Logic listed in docs/gates.md`,
          unknown: op,
        };
        return;
      }
    }
    for (const [key, child] of Object.entries(value)) {
      walk(child, [...at, Array.isArray(value) ? Number(key) : key], depth + 1);
      if (found !== undefined) return;
    }
  };
  walk(rule, [], 1);
  return found;
}

/**
 * `logic` over `data`, with `extra` operations, within `budget` steps: its value, or a
 * LogicBudgetError; an operation not known is an Error (a rule checked by ruleProblem has none).
 */
export function evaluate(
  logic: unknown,
  data: unknown,
  extra: Readonly<Record<string, Operation>> = {},
  budget: number = LOGIC_BUDGET,
): unknown {
  let left = budget;
  const spend = (steps: number): void => {
    left -= steps;
    if (left < 0) throw new LogicBudgetError(budget);
  };
  /**
   * What reading `value` costs, counted up to what is left: a string's length by the 64
   * characters; a list's items, and theirs (a list is made a string, or compared, item by item);
   * an object's keys, but not what they hold (an object is made a string, or compared, whole).
   */
  const weigh = (value: unknown): void => {
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const item = stack.pop();
      if (typeof item === 'string') spend(1 + Math.floor(item.length / 64));
      else if (Array.isArray(item)) {
        spend(1 + item.length);
        for (const child of item) stack.push(child);
      } else if (item !== null && typeof item === 'object') spend(1 + Object.keys(item).length);
      else spend(1);
    }
  };
  const each = (
    values: unknown[],
    scope: unknown,
    visit: (items: unknown[], scoped: unknown) => unknown,
  ) => {
    const items = run(values[0], scope);
    return visit(Array.isArray(items) ? items : [], values[1]);
  };
  const run = (rule: unknown, scope: unknown): unknown => {
    spend(1);
    if (Array.isArray(rule)) return rule.map((item) => run(item, scope));
    if (!isLogic(rule)) return rule;
    const op = Object.keys(rule)[0]!;
    const given = rule[op];
    const values = Array.isArray(given) ? given : [given];
    switch (op) {
      case 'if':
      case '?:': {
        let i = 0;
        for (; i < values.length - 1; i += 2)
          if (truthy(run(values[i], scope))) return run(values[i + 1], scope);
        return values.length === i + 1 ? run(values[i], scope) : null;
      }
      case 'and':
      case 'or': {
        let current: unknown;
        for (const value of values) {
          current = run(value, scope);
          if (truthy(current) === (op === 'or')) return current;
        }
        return current;
      }
      case 'filter':
        return each(values, scope, (items, scoped) =>
          items.filter((item) => truthy(run(scoped, item))),
        );
      case 'map':
        return each(values, scope, (items, scoped) => items.map((item) => run(scoped, item)));
      case 'all':
        return each(
          values,
          scope,
          (items, scoped) => items.length > 0 && items.every((item) => truthy(run(scoped, item))),
        );
      case 'some':
        return each(values, scope, (items, scoped) =>
          items.some((item) => truthy(run(scoped, item))),
        );
      case 'none':
        return each(values, scope, (items, scoped) =>
          items.every((item) => !truthy(run(scoped, item))),
        );
      case 'reduce': {
        const items = run(values[0], scope);
        const initial = values[2] === undefined ? null : run(values[2], scope);
        if (!Array.isArray(items)) return initial;
        return (items as unknown[]).reduce<unknown>(
          (accumulator, current) => run(values[1], { current, accumulator }),
          initial,
        );
      }
    }
    const operation = Object.hasOwn(STANDARD, op)
      ? STANDARD[op]!
      : Object.hasOwn(extra, op)
        ? extra[op]!
        : undefined;
    if (operation === undefined) throw new Error(`Unrecognized operation ${op}`);
    const evaluated = values.map((value) => run(value, scope));
    for (const value of evaluated) weigh(value);
    return operation.apply(scope, evaluated);
  };
  return run(logic, data);
}

/** The data a rule reads (`var`'s paths), each once, in its order (json-logic-js's uses_data). */
export function usesData(rule: unknown): unknown[] {
  const found: unknown[] = [];
  const walk = (logic: unknown, depth: number): void => {
    if (!isLogic(logic) || depth > MAX_RULE_DEPTH) return;
    const op = Object.keys(logic)[0]!;
    const given = logic[op];
    const values: unknown[] = Array.isArray(given) ? given : [given];
    if (op === 'var') {
      if (!found.includes(values[0])) found.push(values[0]);
    } else for (const value of values) walk(value, depth + 1);
  };
  walk(rule, 1);
  return found;
}
