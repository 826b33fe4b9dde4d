// Plain JSON helpers for the diff engine: type-exact equality, JSON Pointer escaping.

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The value of `object`'s own property `key`, or undefined: never one of Object.prototype's (a
 * live contract may hold keys such as `constructor` that a plain lookup would find there).
 */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Sets `object`'s own property `key`, `__proto__` too, as a data property (never a prototype). */
export function setOwn(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Type-exact deep equality of JSON values: 99.9 is not "99.9", key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key) || !jsonEqual((a as JsonObject)[key], (b as JsonObject)[key]))
      return false;
  }
  return true;
}

/** Escapes one JSON Pointer reference token (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function escapeToken(token: string): string {
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reads one JSON Pointer reference token back: `~1` → `/`, `~0` → `~`. */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The top-level member a JSON Pointer starts in (`/schema/3/name` → `schema`). */
export function topMember(pointer: string): string {
  const end = pointer.indexOf('/', 1);
  return unescapeToken(pointer.slice(1, end === -1 ? undefined : end));
}
