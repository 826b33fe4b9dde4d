// The schemas' validators are compiled at build time (scripts/generate-validator.mjs): each
// committed module must be what the script makes from its schema now, and the contract's must
// judge contracts as ajv compiling the schema at run time does.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../src/contract/contract-validator.mjs';
import { contractSchema } from '../src/contract/model.js';
import { createContractAjv } from '../src/contract/contract-ajv.mjs';
import { arbitraryContract } from './helpers/arbitraries.js';

const root = path.resolve(import.meta.dirname, '..');

describe('the precompiled contract validator', () => {
  it.each([
    ['schemas/data-contract.schema.json', 'src/contract/contract-validator.mjs'],
    ['schemas/settings.schema.json', 'src/settings/settings-validator.mjs'],
  ])(
    '%s: %s is what scripts/generate-validator.mjs makes from it (run npm run build after changing it)',
    (schema, module) => {
      const made = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import('./scripts/generate-validator.mjs'); process.stdout.write(m.validatorModule(${JSON.stringify(schema)}));`,
        ],
        { cwd: root, encoding: 'utf8' },
      );
      expect(readFileSync(path.join(root, module), 'utf8')).toBe(made);
    },
  );

  it('judges contracts, valid or broken, with the errors ajv compiling at run time gives', () => {
    const runtime = createContractAjv().compile(contractSchema);
    const broken = fc.oneof(
      arbitraryContract(),
      arbitraryContract().map((contract) => ({ ...contract, entityStatus: 'Sometimes' })),
      arbitraryContract().map((contract) => ({ ...contract, schema: [{ name: 1 }], extra: true })),
    );
    fc.assert(
      fc.property(broken, (contract) => {
        const ok = validate(contract);
        expect(runtime(contract)).toBe(ok);
        const strip = (errors: typeof validate.errors) =>
          (errors ?? []).map(({ instancePath, keyword, params, message }) => ({
            instancePath,
            keyword,
            params,
            message,
          }));
        expect(strip(validate.errors)).toEqual(strip(runtime.errors));
      }),
      { numRuns: 300 },
    );
  });
});
