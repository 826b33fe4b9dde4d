// The ajv instance the tool's own schemas (the contract file's, the settings file's) are compiled
// with: at build time into standalone validators (scripts/generate-validator.mjs, with `source`
// and `esm` added to `code`), and at run time by the tests that check those validators. Plain
// JavaScript, so that the build script can import it as it is.
import { Ajv } from 'ajv';

/**
 * An ajv instance configured the way the tool validates contracts (strict, all errors), for the
 * schemas the tool ships: compiled without checking them against JSON Schema's own schema (a test
 * does, with `ajv.validateSchema`) and without ajv's code optimization, which validates a
 * contract no slower. `code` adds to the code options (the build's `source` and `esm`).
 */
export function createContractAjv(code = {}) {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    verbose: true,
    allowUnionTypes: true,
    validateSchema: false,
    code: { optimize: false, ...code },
  });
  // Annotation only: the sentence used when a pattern or enum does not match.
  ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
  return ajv;
}
