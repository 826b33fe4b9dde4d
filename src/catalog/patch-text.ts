// A PATCH body as text. OpenMetadata's server weighs a `test` value against the stored one as
// Java's JSON-P does: numbers are BigDecimals, and 1 is not 1.0. The version it stores is a Java
// Double, which it writes with a fraction digit (1.0, 2.0), so a whole version is written here the
// same way; JSON.stringify would write 1, and the guard's test of /version would fail on every
// contract from version 1.0 on. Any other JSON reader takes 1.0 as 1.
import type { Operation } from '../model/operation.js';

/** A version as OpenMetadata writes it, a Java Double: 1.0, 0.3. */
export function javaVersion(version: number): string {
  return Number.isInteger(version) ? version.toFixed(1) : String(version);
}

/** `operations` as the JSON text of a PATCH body, a whole version written as 1.0. */
export function patchText(operations: readonly Operation[]): string {
  const items = operations.map((op) =>
    op.op === 'test' &&
    op.path === '/version' &&
    typeof op.value === 'number' &&
    Number.isInteger(op.value)
      ? `{"op":"test","path":"/version","value":${javaVersion(op.value)}}`
      : JSON.stringify(op),
  );
  return `[${items.join(',')}]`;
}
