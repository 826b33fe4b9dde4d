// The RFC 6902 operations of a PATCH body, checked before anything is applied: well-formed
// operations and JSON Pointers, bounded nesting, sources that exist and moves that can be made.
import type jsonpatch from 'fast-json-patch';
import { ApiError, type Json } from './http.js';

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
/** Deepest nesting a PATCH value may have; deeper bodies are refused before anything is applied. */
const MAX_BODY_DEPTH = 64;

/** Whether `value` nests objects and arrays deeper than `limit` (iterative: no stack to exhaust). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The reference tokens of a JSON Pointer (RFC 6901), or why it is not one. */
function pointerTokens(pointer: string): string[] | string {
  if (pointer === '') return [];
  if (/~(?![01])/.test(pointer))
    return `${pointer} is not a JSON Pointer: ~ must be followed by 0 or 1 (RFC 6901)`;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value of the document at `tokens`, in a box; undefined when there is none. */
function valueAtTokens(
  document: unknown,
  tokens: readonly string[],
): { value: unknown } | undefined {
  let current = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, token)) {
      current = (current as Json)[token];
    } else return undefined;
  }
  return { value: current };
}

/** The value of the document at a JSON Pointer checked by checkOperations, in a box, if any. */
export function valueAt(document: unknown, pointer: string): { value: unknown } | undefined {
  return valueAtTokens(document, pointerTokens(pointer) as string[]);
}

/**
 * A clear 400 for a move or copy that cannot work: nothing at `from`, or a value moved into one of
 * its own children. Checked against the document as the operations before it left it.
 */
export function checkSource(document: Json, op: jsonpatch.Operation, index: number): void {
  if (op.op !== 'move' && op.op !== 'copy') return;
  const from = pointerTokens(op.from) as string[];
  if (valueAtTokens(document, from) === undefined)
    throw new ApiError(
      400,
      `operation ${index} (${op.op} from ${op.from}): there is no value at ${op.from}`,
    );
  if (op.op === 'move' && op.path.startsWith(`${op.from}/`))
    throw new ApiError(
      400,
      `operation ${index} (move from ${op.from} to ${op.path}): a value cannot be moved into itself`,
    );
}

/** A body that is an array of well-formed RFC 6902 operations, or a 400 naming the bad one. */
export function checkOperations(body: unknown): jsonpatch.Operation[] {
  if (!Array.isArray(body))
    throw new ApiError(400, 'the PATCH body must be a JSON array of RFC 6902 operations');
  body.forEach((op: unknown, index) => {
    const bad = (why: string): never => {
      throw new ApiError(400, `operation ${index} is invalid: ${why}`);
    };
    if (op === null || typeof op !== 'object' || Array.isArray(op))
      bad('each operation must be an object');
    const record = op as Json;
    if (typeof record.op !== 'string' || !OPS.has(record.op))
      bad(
        `op must be one of add, remove, replace, move, copy, test; got ${JSON.stringify(record.op)}`,
      );
    if (typeof record.path !== 'string' || (record.path !== '' && !record.path.startsWith('/')))
      bad('path must be a JSON Pointer such as /description');
    if (
      (record.op === 'move' || record.op === 'copy') &&
      (typeof record.from !== 'string' || (record.from !== '' && !record.from.startsWith('/')))
    ) {
      bad(`${record.op} needs from, a JSON Pointer`);
    }
    if (
      (record.op === 'add' || record.op === 'replace' || record.op === 'test') &&
      !('value' in record)
    )
      bad(`${record.op} needs a value`);
    if (
      [record.path, record.from].some(
        (pointer) =>
          typeof pointer === 'string' && /\/(__proto__|constructor|prototype)(\/|$)/.test(pointer),
      )
    ) {
      bad('path must not name __proto__, constructor or prototype');
    }
    if (record.path === '') bad('the whole document cannot be replaced');
    for (const pointer of [record.path, record.from]) {
      if (typeof pointer !== 'string') continue;
      const tokens = pointerTokens(pointer);
      if (typeof tokens === 'string') bad(tokens);
    }
    if (nestsDeeperThan(record.value, MAX_BODY_DEPTH))
      bad(`its value nests deeper than ${MAX_BODY_DEPTH} levels`);
  });
  return body as jsonpatch.Operation[];
}
