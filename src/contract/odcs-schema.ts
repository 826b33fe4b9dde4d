// The ODCS JSON Schema (v3.1.0, Apache-2.0, shipped in schemas/odcs/ with its licence), which an
// ODCS document is validated against, its problems located in the file like this tool's own. The
// v3.1.0 schema takes the documents of v3.0.x too (its apiVersion lists them), so one schema
// serves every v3 document. It is compiled at build time (scripts/generate-validator.mjs, with
// ajv's draft 2019-09 build) into a module shipped beside it, which is read from disk on first
// use: a repository without ODCS files (and each loading thread) loads none of it, and no run
// compiles the schema (a third of a second each thread did).
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { shippedSchemaFile } from '../support/shipped.js';

const VALIDATOR = 'odcs/odcs-json-schema-v3.1.0.validator.cjs';

function validatorFile(): string {
  const file = shippedSchemaFile(VALIDATOR);
  if (file === undefined)
    throw new Error(
      `the ODCS schema's validator (schemas/${VALIDATOR}) is not where the package keeps it`,
    );
  return file;
}

let loaded: ValidateFunction | undefined;

/** The ODCS validator, loaded once per thread on first use (files of our own format never ask). */
export function odcsValidator(): ValidateFunction {
  loaded ??= createRequire(import.meta.url)(validatorFile()) as ValidateFunction;
  return loaded;
}
