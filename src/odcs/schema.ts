// The ODCS JSON Schema (v3.1.0, Apache-2.0, shipped in schemas/odcs/ with its licence), which an
// ODCS document is validated against with ajv, its problems located in the file like this tool's
// own. The v3.1.0 schema takes the documents of v3.0.x too (its apiVersion lists them), so one
// schema serves every v3 document.
import { Ajv2019 } from 'ajv/dist/2019.js';
import type { ValidateFunction } from 'ajv';
import odcsSchema from '../../schemas/odcs/odcs-json-schema-v3.1.0.json' with { type: 'json' };

let compiled: ValidateFunction | undefined;

/** The ODCS validator, compiled once per thread on first use (files of our own format never ask). */
export function odcsValidator(): ValidateFunction {
  // Not strict: the standard's schema uses formats and keywords ajv's strict mode refuses; formats
  // are not checked (as the standard's own tooling does not).
  compiled ??= new Ajv2019({
    allErrors: true,
    strict: false,
    verbose: true,
    validateFormats: false,
  }).compile(odcsSchema);
  return compiled;
}
