// RFC 6902 operations as the diff engine emits them, and the `test` guards added before sending.

/** An operation that changes the document: what the diff engine emits. */
export type ChangeOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'move'; from: string; path: string };

/** A guard: the catalog refuses the whole patch unless the value at `path` is `value`. */
export type TestOperation = { op: 'test'; path: string; value: unknown };

export type Operation = ChangeOperation | TestOperation;

/** The operations that change something, without the guards. */
export function changesOf(ops: readonly Operation[]): ChangeOperation[] {
  return ops.filter((op): op is ChangeOperation => op.op !== 'test');
}
