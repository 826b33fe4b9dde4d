// The schemas' validators are compiled at build time (scripts/generate-validator.mjs): each
// committed module must be what the script makes from its schema now, as a separate Node process
// running the script makes it. How they judge documents: contract-validator.unit.test.ts.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

describe('the precompiled validators', () => {
  it.each([
    ['schemas/data-contract.schema.json', 'src/contract/contract-validator.mjs'],
    ['schemas/settings.schema.json', 'src/settings/settings-validator.mjs'],
    ['schemas/plan.schema.json', 'src/plan/plan-validator.mjs'],
    [
      'schemas/odcs/odcs-json-schema-v3.1.0.json',
      'schemas/odcs/odcs-json-schema-v3.1.0.validator.cjs',
    ],
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
});
