// The schemas' validators are compiled at build time (scripts/generate-validator.mjs): the
// contract's and the ODCS standard's must judge documents as ajv compiling the schema at run time
// does. That each committed module is what the script makes now: contract-validator.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { load } from 'js-yaml';
import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { validate } from '../src/contract/contract-validator.mjs';
import { contractSchema } from '../src/model/contract.js';
import { createContractAjv } from '../src/contract/contract-ajv.mjs';
import { createOdcsAjv } from '../src/contract/odcs-ajv.mjs';
import { odcsValidator } from '../src/contract/odcs-schema.js';
import { arbitraryContract } from './helpers/arbitraries.js';

const root = path.resolve(import.meta.dirname, '..');

const strip = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({
    instancePath,
    schemaPath,
    keyword,
    params,
    message,
  }));

/** Every JSON Pointer into `value` (the root's is ''), as token lists. */
function pointers(value: unknown, at: string[] = []): string[][] {
  const found = [at];
  if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) found.push(...pointers(child, [...at, key]));
  return found;
}

/** A copy of `document` with the value at `pointer` replaced by `value`, or removed (undefined). */
function mutated(document: unknown, pointer: string[], value: unknown): unknown {
  if (pointer.length === 0) return value;
  const copy = structuredClone(document) as Record<string, unknown>;
  let parent = copy;
  for (const token of pointer.slice(0, -1)) parent = parent[token] as Record<string, unknown>;
  const last = pointer.at(-1)!;
  if (value !== undefined) parent[last] = value;
  else if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete parent[last];
  return copy;
}

describe('the precompiled contract validator', () => {
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
        expect(strip(validate.errors)).toEqual(strip(runtime.errors));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the precompiled ODCS validator', () => {
  it("judges the standard's examples, and each changed at one place, with the errors ajv compiling the schema at run time gives", () => {
    const schema = JSON.parse(
      readFileSync(path.join(root, 'schemas/odcs/odcs-json-schema-v3.1.0.json'), 'utf8'),
    ) as object;
    const runtime = createOdcsAjv().compile(schema);
    const precompiled = odcsValidator();
    const folder = path.join(root, 'test/fixtures/odcs-3.1.0');
    const examples = readdirSync(folder)
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => load(readFileSync(path.join(folder, name), 'utf8')));
    expect(examples.length).toBeGreaterThan(5);
    for (const example of examples)
      expect(precompiled(example), JSON.stringify(precompiled.errors)).toBe(true);
    const changed = fc
      .constantFrom(...examples)
      .chain((example) =>
        fc.tuple(
          fc.constant(example),
          fc.constantFrom(...pointers(example)),
          fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
        ),
      )
      .map(([example, pointer, value]) => mutated(example, pointer, value));
    let refused = 0;
    fc.assert(
      fc.property(changed, (document) => {
        const ok = precompiled(document);
        expect(ok).toBe(runtime(document));
        expect(strip(precompiled.errors)).toEqual(strip(runtime.errors));
        if (!ok) refused += 1;
      }),
      { numRuns: 300 },
    );
    // The changes break documents often enough for the errors to be compared.
    expect(refused).toBeGreaterThan(50);
  });
});
