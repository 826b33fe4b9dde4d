// The ajv instance the ODCS schema (draft 2019-09) is compiled with: at build time into a
// standalone validator (scripts/generate-validator.mjs, with `source` added to `code`), and at
// run time by the test that checks that validator. Plain JavaScript, so that the build script can
// import it as it is.
import { Ajv2019 } from 'ajv/dist/2019.js';

/**
 * Not strict: the standard's schema uses formats and keywords ajv's strict mode refuses; formats
 * are not checked (as the standard's own tooling does not). `code` adds to the code options.
 */
export function createOdcsAjv(code = {}) {
  return new Ajv2019({
    allErrors: true,
    strict: false,
    verbose: true,
    validateFormats: false,
    code,
  });
}
