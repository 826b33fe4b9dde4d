// The spec profile: the interface of the catalog specification, whose shapes are the file's.
import { FIELD_SHAPES, MANAGED_FIELDS } from '../model/contract.js';
import type { JsonObject } from '../model/json-value.js';
import { setFields, type Codec, type Unstorable } from './codec-types.js';

export const SPEC_STATUSES = ['Draft', 'Active', 'Deprecated'];
/** SLA properties only OpenMetadata stores. */
const OPENMETADATA_SLA = ['retention', 'availabilityTime', 'timezone', 'columnName'];

/** The spec's interface: the file's shapes are the wire's. */
export const specCodec: Codec = {
  profile: 'spec',
  release: null,
  sendsIfMatch: true,
  shapes: FIELD_SHAPES,
  statuses: SPEC_STATUSES,
  unstorable(contract) {
    const problems: Unstorable[] = [];
    const status = contract.entityStatus;
    if (typeof status === 'string' && !SPEC_STATUSES.includes(status))
      problems.push({
        pointer: '/entityStatus',
        message: `entityStatus ${status} is not a status this catalog (spec profile) stores; use one of ${SPEC_STATUSES.join(', ')}`,
      });
    const sla = contract.sla as JsonObject | null | undefined;
    for (const name of OPENMETADATA_SLA)
      if (sla?.[name] !== undefined)
        problems.push({
          pointer: `/sla/${name}`,
          message: `sla.${name} is not stored by this catalog (spec profile: refreshFrequency, maxLatency, availability); remove it, or use an OpenMetadata catalog`,
        });
    const security = contract.security as JsonObject | null | undefined;
    if (security?.policies !== undefined)
      problems.push({
        pointer: '/security/policies',
        message:
          'security.policies is not stored by this catalog (spec profile); write security.accessPolicy instead',
      });
    return problems;
  },
  referencesById: false,
  toWire: (desired) => desired,
  fromWire: (live) => live,
  createBody: (desired, asset) => ({
    name: desired.name,
    entity: { id: asset.id, type: asset.type },
    ...setFields(desired, MANAGED_FIELDS),
  }),
};
