// The ajv instance the plan file's schema is compiled with: at build time into a standalone
// validator (scripts/generate-validator.mjs, with `source` and `esm` added to `code`), and at run
// time by the test that checks that validator. Plain JavaScript, so that the build script can
// import it as it is.
import { Ajv } from 'ajv';

/**
 * An ajv instance for the plan file (the first error is enough: a plan is either what plan
 * writes or refused whole). `code` adds to the code options (the build's `source` and `esm`).
 */
export function createPlanAjv(code = {}) {
  return new Ajv({ allErrors: false, strict: false, code });
}
