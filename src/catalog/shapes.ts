// What each catalog answer must be before anything reads it: checked whole, to the fields the tool
// reads, so that a catalog's (or a proxy's) answer of the wrong shape — a null in a list, a number
// where a list of names was — is a typed error naming the route and the field that was wrong,
// never a TypeError deep inside a command. Fields the tool does not read are not checked.

/** What a successful answer must be, said as "something that is not …" when it is not. */
export interface AnswerShape {
  what: string;
  /** What is wrong with `body` ("data[3] is null, not an object"), or undefined when nothing is. */
  problem(body: unknown): string | undefined;
}

/** What is wrong with the value at `at` (a path such as `nodes[2].id`), or undefined. */
type Check = (value: unknown, at: string) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a value is, as an answer's problem says it. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const where = (at: string): string => (at === '' ? 'the answer' : at);

const typed =
  (type: 'string' | 'number' | 'boolean'): Check =>
  (value, at) =>
    typeof value === type ? undefined : `${where(at)} is ${kind(value)}, not a ${type}`;

const string = typed('string');
const number = typed('number');
const boolean = typed('boolean');

/** An object whose `fields` are each as checked (others, unread, are not looked at). */
const record =
  (fields: Record<string, Check> = {}): Check =>
  (value, at) => {
    if (!isRecord(value)) return `${where(at)} is ${kind(value)}, not an object`;
    for (const [name, check] of Object.entries(fields)) {
      const problem = check(value[name], at === '' ? name : `${at}.${name}`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };

/** A list whose every item is as `item` checks. */
const list =
  (item?: Check): Check =>
  (value, at) => {
    if (!Array.isArray(value)) return `${where(at)} is ${kind(value)}, not a list`;
    if (item === undefined) return undefined;
    for (const [index, entry] of value.entries()) {
      const problem = item(entry, `${at}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };

/** Absent or null (which the tool reads as absent), or as `check` says. */
const optional =
  (check: Check): Check =>
  (value, at) =>
    value === undefined || value === null ? undefined : check(value, at);

function shape(what: string, check: Check): AnswerShape {
  return { what, problem: (body) => check(body, '') };
}

/** A data contract: what every use of one relies on (its id, names, version and asset). */
const contract = record({
  id: string,
  fullyQualifiedName: string,
  version: number,
  entity: record({ type: string, fullyQualifiedName: string }),
});

export const CONTRACT_ANSWER = shape(
  'a data contract (an object with id, fullyQualifiedName, version and entity)',
  contract,
);

/** What a change did (ChangeDescription): each field changed, by its name. */
const changes = optional(
  record({
    fieldsAdded: optional(list(record({ name: string }))),
    fieldsUpdated: optional(list(record({ name: string }))),
    fieldsDeleted: optional(list(record({ name: string }))),
    previousVersion: optional(number),
  }),
);

/** A contract as a PATCH leaves it: a contract, and what the change did. */
export const PATCHED_ANSWER = shape(
  'a data contract (an object with id, fullyQualifiedName, version and entity)',
  (body, at) =>
    contract(body, at) ??
    record({ changeDescription: changes, incrementalChangeDescription: changes })(body, at),
);

/** A user, team or test case read by name: what a reference to it needs. */
export const ENTITY_ANSWER: AnswerShape = {
  what: 'an entity (an object with an id)',
  problem: (body) =>
    record({ id: string })(body, '') ??
    ((body as { id: string }).id === '' ? 'id is empty' : undefined),
};

/** An asset read with its owners: each owner an object (the name and type are read if there). */
export const OWNED_ANSWER = shape(
  'an entity with its owners',
  record({ owners: optional(list(record())) }),
);

/** The custom properties of an entity type: a list of objects, when there are any. */
export const TYPE_ANSWER = shape(
  'an entity type (an object with its customProperties)',
  record({ customProperties: optional(list(record())) }),
);

const edge = record({ fromEntity: string, toEntity: string });

/** A lineage graph (EntityLineage): the asset, its nodes, and the edges by id. */
export const LINEAGE_ANSWER = shape(
  'a lineage graph (an object with entity, nodes and edges)',
  record({
    entity: record({ id: string }),
    nodes: optional(
      list(
        record({
          id: string,
          type: string,
          fullyQualifiedName: string,
          deleted: optional(boolean),
        }),
      ),
    ),
    downstreamEdges: optional(list(edge)),
  }),
);

/** The counts of one part of a contract's run. */
const counts = { passed: optional(number), failed: optional(number), total: optional(number) };
const names = optional(list(string));

/** A contract's run (DataContractResult): its status, and what the verdict is said with. */
export const RESULT_ANSWER = shape(
  'a data contract result (an object with contractExecutionStatus)',
  record({
    contractExecutionStatus: string,
    id: optional(string),
    result: optional(string),
    timestamp: optional(number),
    schemaValidation: optional(
      record({
        ...counts,
        failedFields: names,
        duplicateFields: names,
        typeMismatchFields: names,
      }),
    ),
    semanticsValidation: optional(
      record({
        ...counts,
        failedRules: optional(
          list(record({ ruleName: optional(string), reason: optional(string) })),
        ),
      }),
    ),
    qualityValidation: optional(record({ ...counts, qualityScore: optional(number) })),
    slaValidation: optional(
      record({
        refreshFrequencyMet: optional(boolean),
        latencyMet: optional(boolean),
        availabilityMet: optional(boolean),
        actualLatency: optional(number),
      }),
    ),
  }),
);

/** OpenMetadata's dry run of a create (ContractValidation): its verdict and the reasons. */
export const CREATE_VALIDATION_ANSWER = shape(
  "a create's dry run (an object with valid)",
  record({
    valid: optional(boolean),
    schemaValidation: optional(
      record({ failedFields: names, duplicateFields: names, typeMismatchFields: names }),
    ),
    entityErrors: names,
    constraintErrors: names,
  }),
);

const paging = optional(
  record({ after: optional(string), before: optional(string), total: optional(number) }),
);

/** A page of a list whose items are as `item` checks (each at least an object). */
function pageOf(item: Check): AnswerShape {
  return shape(
    'a page of a list (an object with a data list)',
    record({ data: list(item), paging }),
  );
}

/** A page of any list: a list of objects, with its paging. */
export const PAGE_ANSWER = pageOf(record());

/** What the tool reads of each item of the lists it reads, by the list's path. */
const LISTED: Readonly<Record<string, AnswerShape>> = {
  '/dataContracts': pageOf(contract),
  '/tables': pageOf(record({ id: string, fullyQualifiedName: string })),
};

/** The shape of a page of the list at `path`. */
export function pageAnswer(path: string): AnswerShape {
  return Object.hasOwn(LISTED, path) ? LISTED[path]! : PAGE_ANSWER;
}

export const SEARCH_ANSWER = shape(
  'a search result (an object with hits.hits, a list)',
  record({
    hits: record({
      total: record({ value: number }),
      hits: list(record({ _source: record() })),
    }),
  }),
);

export const ANY_ANSWER: AnswerShape = { what: 'JSON', problem: () => undefined };

/** A list of objects (OpenMetadata's data asset rules). */
export const LIST_ANSWER = shape('a JSON list of objects', list(record()));

/** What a user may do on a kind of resource (OpenMetadata's ResourcePermission). */
export const PERMISSION_ANSWER = shape(
  'permissions (an object with a permissions list)',
  record({ permissions: list(record({ operation: string, access: string })) }),
);

/** A version history (OpenMetadata's EntityHistory); each version is read on its own after. */
export const HISTORY_ANSWER = shape(
  'a version history (an object with a versions list)',
  record({ versions: list() }),
);
