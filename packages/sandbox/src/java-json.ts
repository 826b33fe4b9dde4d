// How OpenMetadata's server (Java; its JSON Patch is JSON-P's) weighs the value of a patch's
// `test` operation against the stored one. JSON-P compares numbers as BigDecimals, and a
// BigDecimal equals another only at the same scale: 1 and 1.0 differ. The stored contract reaches
// JSON-P through Jackson, so a Java Double (the version) is the BigDecimal of its Double.toString
// (1.0, scale 1), and an Integer or Long (an SLA's interval, a column's length, a timestamp) has
// scale 0. A PATCH body is therefore read keeping each number as written.
import { isLosslessNumber, parse } from 'lossless-json';
import { ApiError, type Json } from './http.js';

/** A number as written in the body: its value and its BigDecimal scale. */
function writtenScale(literal: string): number {
  const match = /^-?\d+(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  return (match[1]?.length ?? 0) - Number(match[2] ?? 0);
}

/** The scale of `BigDecimal.valueOf(value)`, the BigDecimal of Java's Double.toString(value). */
function doubleScale(value: number): number {
  // Double.toString keeps at least one fraction digit ("1.0") and otherwise the same shortest
  // digits as JavaScript; outside [1e-3, 1e7) it writes a mantissa and an exponent ("1.0E7").
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const magnitude = Math.abs(value);
  if (value === 0 || (magnitude >= 1e-3 && magnitude < 1e7)) {
    const fraction = String(value).split('.')[1];
    return Math.max(1, fraction?.length ?? 0);
  }
  const digits = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(1, digits) - Number(exponent);
}

/** Whether the stored number at `pointer` is a Java Double (the version, or any fraction). */
function storedAsDouble(pointer: string, value: number): boolean {
  return pointer === '/version' || !Number.isInteger(value);
}

/** `value` with every number read from the body made a JavaScript number. */
function plainNumbers(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number(value.toString());
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainNumbers(v)]));
  return value;
}

/**
 * A JSON Patch body as OpenMetadata reads it: the values of `test` operations keep their numbers
 * as written; every other number is a JavaScript number.
 */
export function parsePatchBody(body: Buffer): unknown {
  let parsed: unknown;
  try {
    parsed = parse(body.toString('utf8'));
  } catch (error) {
    throw new ApiError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) return plainNumbers(parsed);
  return parsed.map((op: unknown) => {
    if (op === null || typeof op !== 'object' || Array.isArray(op)) return plainNumbers(op);
    const record = op as Json;
    return Object.fromEntries(
      Object.entries(record).map(([key, value]) => [
        key,
        record.op === 'test' && key === 'value' ? value : plainNumbers(value),
      ]),
    );
  });
}

/** Whether JSON-P finds `sent` (read by parsePatchBody) equal to `stored`, found at `pointer`. */
export function javaEquals(sent: unknown, stored: unknown, pointer: string): boolean {
  if (isLosslessNumber(sent)) {
    if (typeof stored !== 'number') return false;
    const literal = sent.toString();
    const scale = storedAsDouble(pointer, stored) ? doubleScale(stored) : 0;
    return Number(literal) === stored && writtenScale(literal) === scale;
  }
  if (Array.isArray(sent))
    return (
      Array.isArray(stored) &&
      sent.length === stored.length &&
      sent.every((item, i) => javaEquals(item, stored[i], `${pointer}/${i}`))
    );
  if (sent !== null && typeof sent === 'object') {
    if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return false;
    const keys = Object.keys(sent);
    return (
      keys.length === Object.keys(stored).length &&
      keys.every(
        (key) =>
          Object.hasOwn(stored, key) &&
          javaEquals((sent as Json)[key], (stored as Json)[key], `${pointer}/${key}`),
      )
    );
  }
  return sent === stored;
}
