// The ODCS JSON Schema (v3.1.0, Apache-2.0, shipped in schemas/odcs/ with its licence), which an
// ODCS document is validated against with ajv, its problems located in the file like this tool's
// own. The v3.1.0 schema takes the documents of v3.0.x too (its apiVersion lists them), so one
// schema serves every v3 document. It is read from disk and compiled on first use, so that a
// repository without ODCS files (and each loading thread) holds none of it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import type { ValidateFunction } from 'ajv';

const SCHEMA = path.join('schemas', 'odcs', 'odcs-json-schema-v3.1.0.json');

/** The shipped schema's path: schemas/ sits above the built chunk (dist/chunks) or this source file. */
function schemaFile(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)), i = 0; i < 5; i++) {
    const candidate = path.join(dir, SCHEMA);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`the ODCS schema (${SCHEMA}) is not where the package keeps it`);
}

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
  }).compile(JSON.parse(readFileSync(schemaFile(), 'utf8')) as object);
  return compiled;
}
