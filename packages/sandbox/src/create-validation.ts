// OpenMetadata's answer to its dry run of a create (`POST /v1/dataContracts/validate`): a
// ContractValidation (`validateContractWithoutThrowing`) saying what the create would refuse.
import { ApiError, type Json } from './http.js';

/**
 * The ContractValidation of a create: `make` builds the contract the body makes, with the create's
 * own checks (a 400 is what they refuse); `body` is the request, read again for its columns.
 */
export function contractValidation(make: () => Json, body: () => unknown): Json {
  const failedFields: string[] = [];
  const constraintErrors: string[] = [];
  let columns: unknown;
  try {
    columns = make().schema;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    const missing = /^Schema validation failed\. .*: (.*)$/.exec(error.message);
    if (missing !== null) failedFields.push(...missing[1]!.split(', '));
    else constraintErrors.push(error.message);
    columns = (body() as Json | null)?.schema;
  }
  const total = Array.isArray(columns) ? columns.length : 0;
  return {
    valid: failedFields.length === 0 && constraintErrors.length === 0,
    schemaValidation: {
      passed: total - failedFields.length,
      failed: failedFields.length,
      total,
      failedFields,
      duplicateFields: [],
      typeMismatchFields: [],
    },
    entityErrors: [],
    constraintErrors,
  };
}
