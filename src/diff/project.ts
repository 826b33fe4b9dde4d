// The managed projection of a value: only the properties the contract schema declares.
// Whatever else a live value holds was added by the server and is neither compared nor removed.
import type { Shape } from '../contract/model.js';
import { isPlainObject, type JsonObject } from './json-value.js';

export function project(value: unknown, shape: Shape): unknown {
  if (shape.kind === 'object' && isPlainObject(value)) {
    const out: JsonObject = {};
    for (const [name, child] of shape.properties) {
      const inner = value[name];
      // A declared property that is null is absent, as far as the contract is concerned.
      if (inner !== undefined && inner !== null) out[name] = project(inner, child);
    }
    return out;
  }
  if (shape.kind === 'array' && Array.isArray(value)) {
    return value.map((item) => project(item, shape.items));
  }
  return value;
}

/** `desired` with the server-added properties of `live` kept, for replacing a whole object. */
export function withServerProperties(live: unknown, desired: unknown, shape: Shape): unknown {
  if (shape.kind !== 'object' || !isPlainObject(live) || !isPlainObject(desired)) return desired;
  let merged: JsonObject | undefined;
  for (const key of Object.keys(live)) {
    if (!shape.properties.has(key)) {
      merged ??= { ...desired };
      merged[key] = live[key];
    }
  }
  return merged ?? desired;
}
