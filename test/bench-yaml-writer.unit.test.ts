// The bench writes its generated contract files with its own YAML writer (bench/lib/yaml-writer.ts)
// instead of the yaml package's stringify, which the benchmark's figures were measured with: the
// two must give the same text, byte for byte, for every contract the bench generates.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generatedContracts } from '../bench/generate.js';
import { contractYaml } from '../bench/lib/yaml-writer.js';

describe("the bench's YAML writer", () => {
  it("writes the generated contracts as the yaml package's stringify does", () => {
    let compared = 0;
    // The first contracts, then every 97th past 10,000, whose longer names make the longest lines
    // (up to 100,000 they are no longer: the last table is 99,999).
    let i = 0;
    for (const generated of generatedContracts(20_000, {})) {
      if (i < 400 || (i >= 10_000 && i % 97 === 0)) {
        expect(contractYaml(generated.desired), `contract ${i}`).toBe(stringify(generated.desired));
        compared += 1;
      }
      i += 1;
    }
    expect(compared).toBe(400 + 103);
  });

  it('writes every column shape, and the contracts of a fully changed workspace', () => {
    for (const generated of generatedContracts(300, { changedFraction: 1, seed: 7 }))
      expect(contractYaml(generated.desired)).toBe(stringify(generated.desired));
  });

  it('quotes a string YAML would read as something else, as the yaml package does', () => {
    for (const value of ['true', 'null', 'a: b', 'x #y'])
      expect(contractYaml({ name: value })).toBe(stringify({ name: value }));
  });

  it('refuses what it cannot write as the yaml package does, rather than writing it otherwise', () => {
    expect(() => contractYaml({ name: 'a\nb' })).toThrow(/cannot write/);
    expect(() => contractYaml({ name: 'it\'s "quoted"' })).toThrow(/cannot write/);
    expect(() => contractYaml({ description: 'x'.repeat(90) })).toThrow(/cannot write/);
    expect(() => contractYaml({ tags: [] })).toThrow(/cannot write/);
    expect(() => contractYaml({ 'x-y': 1 })).toThrow(/cannot write/);
    expect(() => contractYaml({ list: ['plain'] })).toThrow(/cannot write/);
  });
});
