// A file's contract known from the catalog's, without reading the file again. The live contract,
// read back in the file's model and cut to the fields the file names (in the file's order) and to
// the properties the schema declares, is the file's contract when its JSON text has the digest the
// file's contract had when it was validated (contract/value-digest.ts): the same keys in the same
// order with the same values, so everything a plan does with it is what it would do with the file
// read again. The declared properties are taken in the schema's order (as `contracts import`
// writes them), else in the catalog's; a contract that differs, or whose file orders a mapping
// otherwise, is read from its file.
import { StoredContractFile } from './load-file.js';
import { FIELD_SHAPES, type DesiredContract } from '../model/contract.js';
import { holding, type ContractFile } from '../contract/positions.js';
import { digestOfValue } from '../contract/value-digest.js';
import { own, type JsonObject } from '../model/json-value.js';
import { project } from '../diff/project.js';
import type { Codec } from '../profile/codec.js';

/** The fields `fields` names of `model`, each projected in `order`; undefined if one lacks. */
function candidateOf(
  model: JsonObject,
  fields: readonly string[],
  order: 'schema' | 'own',
): JsonObject | undefined {
  const candidate: JsonObject = {};
  for (const field of fields) {
    const value = own(model, field);
    if (value === undefined) return undefined;
    const shape = FIELD_SHAPES.get(field);
    candidate[field] = shape === undefined ? value : project(value, shape, order);
  }
  return candidate;
}

/** `stored` holding the live contract as its own, when that is the file's; else undefined. */
export function knownFromLive(
  stored: ContractFile,
  live: JsonObject,
  codec: Codec,
): ContractFile | undefined {
  if (!(stored instanceof StoredContractFile) || stored.value === undefined) return undefined;
  const { fields, digest } = stored.value;
  const model = codec.fromWire(live);
  const names = fields.split(',');
  for (const order of ['schema', 'own'] as const) {
    const candidate = candidateOf(model, names, order);
    if (candidate === undefined) return undefined;
    if (digestOfValue(candidate) === digest) return holding(stored, candidate as DesiredContract);
  }
  return undefined;
}
