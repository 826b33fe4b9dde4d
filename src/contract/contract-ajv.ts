// The ajv instance the tool's schemas are compiled with: at build time into standalone validators
// (scripts/generate-validator.mjs, whose options are these), and at run time only for what is
// compiled then (the ODCS standard's schema, and tests that check the precompiled ones).
import { Ajv } from 'ajv';

/**
 * An ajv instance configured the way the tool validates contracts (strict, all errors), for the
 * schema the tool ships: compiled without checking it against JSON Schema's own schema (its test
 * does, with `ajv.validateSchema`) and without ajv's code optimization. Together they were about
 * 45 of the 75 ms compiling it took in each loading thread, and the code compiled without
 * optimization validates a contract no slower.
 */
export function createContractAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    verbose: true,
    allowUnionTypes: true,
    validateSchema: false,
    code: { optimize: false },
  });
  // Annotation only: the sentence used when a pattern or enum does not match.
  ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
  return ajv;
}
