// The YAML editor pull writes with: only what differs changes, in the file's own style; and the
// pull of one file: any value the catalog holds, pulled, leaves a file that validates and that
// plan finds equal to the catalog.
import fc from 'fast-check';
import { parseDocument, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { editYaml, yamlValue } from '../src/pull/yaml-edit.js';
import { mergeThreeWay } from '../src/pull/three-way.js';
import { differingFields, pullFile } from '../src/pull/pull-file.js';
import { parseContract } from '../src/contract/parse.js';
import { codecFor, specCodec } from '../src/profile/codec.js';
import type { DesiredContract } from '../src/model/contract.js';
import { arbitraryContract, withoutNulls, yamlStylesArb } from './helpers/arbitraries.js';
import { wireArb } from './helpers/openmetadata-arbitraries.js';

const byName = (_: readonly (string | number)[], item: unknown): string | undefined =>
  item !== null && typeof item === 'object' && 'name' in item ? String(item.name) : undefined;

const FILE = `# yaml-language-server: $schema=../schemas/data-contract.schema.json
name: orders # the contract's name
fullyQualifiedName: db.orders.dataContract_orders
entity:
  type: table
  fullyQualifiedName: db.orders
description: Orders placed in the web shop, one row per order,
  loaded hourly.
schema:
  # the key
  - name: order_id
    dataType: BIGINT
    constraint: PRIMARY_KEY

  - name: amount
    dataType: DECIMAL
sla:
  refreshFrequency: 'PT1H'
semantics:
  - name: hasOwner
    rule: "{\\"!!\\": [{\\"var\\": \\"owners\\"}]}"
termsOfUse: |
  Internal use only.
owners: [{ type: team, name: sales }]
`;

/** The lines of `after` that `before` does not hold, and the reverse. */
function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  return {
    added: b.filter((line) => !a.includes(line)),
    removed: a.filter((line) => !b.includes(line)),
  };
}

describe('editYaml', () => {
  it('changes only the lines of what differs, keeping comments, quoting and blocks', () => {
    const target = yamlValue(FILE) as Record<string, any>;
    target.description = 'Orders, every 30 minutes.';
    target.schema.push({ name: 'updated_at', dataType: 'TIMESTAMP' });
    target.sla.refreshFrequency = 'PT30M';
    target.semantics[0].rule = '{"!!": [{"var": "description"}]}';
    target.termsOfUse = 'Internal use only.\nAsk before sharing.\n';
    const { text, rewritten } = editYaml(FILE, target, byName);
    expect(rewritten).toBe(false);
    expect(yamlValue(text)).toEqual(target);
    expect(changedLines(FILE, text)).toEqual({
      added: [
        'description: Orders, every 30 minutes.',
        '  - name: updated_at',
        '    dataType: TIMESTAMP',
        "  refreshFrequency: 'PT30M'",
        '    rule: "{\\"!!\\": [{\\"var\\": \\"description\\"}]}"',
        '  Ask before sharing.',
      ],
      removed: [
        'description: Orders placed in the web shop, one row per order,',
        '  loaded hourly.',
        "  refreshFrequency: 'PT1H'",
        '    rule: "{\\"!!\\": [{\\"var\\": \\"owners\\"}]}"',
      ],
    });
    expect(text).toContain("name: orders # the contract's name");
    expect(text).toContain('  # the key\n  - name: order_id');
  });

  it('removes an item and a key, and adds one where the new order puts it', () => {
    const target = yamlValue(FILE) as Record<string, any>;
    target.schema = [
      { name: 'order_id', dataType: 'BIGINT', constraint: 'PRIMARY_KEY' },
      { name: 'currency', dataType: 'CHAR' },
    ];
    delete target.termsOfUse;
    const { text, rewritten } = editYaml(FILE, target, byName);
    expect(rewritten).toBe(false);
    expect(yamlValue(text)).toEqual(target);
    expect(text).toContain('    constraint: PRIMARY_KEY\n  - name: currency\n    dataType: CHAR\n');
    expect(text).not.toContain('termsOfUse');
    expect(text).not.toContain('amount');
  });

  it('writes a moved list again, said as rewritten only when the layout changes', () => {
    const target = yamlValue(FILE) as Record<string, any>;
    target.schema = [...target.schema].reverse();
    const { text } = editYaml(FILE, target, byName);
    expect(yamlValue(text)).toEqual(target);
    expect(text).toContain("name: orders # the contract's name");
  });

  it('quotes a new string that YAML 1.1 would read as something else', () => {
    const target = { ...yamlValue(FILE), description: '2024-01-01', entityStatus: 'yes' };
    const { text } = editYaml(FILE, target, byName);
    expect(text).toContain('description: "2024-01-01"');
    expect(yamlValue(text)).toEqual(target);
  });

  it('holds any target, and leaves the text of every equal top-level value as it was', () => {
    fc.assert(
      fc.property(arbitraryContract(), arbitraryContract(), yamlStylesArb, (a, b, style) => {
        const before = withoutNulls(a);
        const after = { ...withoutNulls(b), name: a.name };
        const text = stringify(before, style as unknown as Parameters<typeof stringify>[1]);
        // Without indentSeq, the yaml package writes an empty list under a key unindented: no YAML.
        fc.pre(parseDocument(text).errors.length === 0);
        const edited = editYaml(text, after, byName);
        expect(yamlValue(edited.text)).toEqual(after);
        if (edited.rewritten || style.collectionStyle !== 'block') return;
        // The block pair of an equal value is the same text.
        const nameLine = text.split('\n').find((line) => /^['"]?name['"]?:/.test(line));
        expect(edited.text.split('\n')).toContain(nameLine);
      }),
      { numRuns: 300 },
    );
  });
});

describe('mergeThreeWay', () => {
  it("carries the mapping's change onto the file, keeping what the mapping never made", () => {
    const current = {
      a: 1,
      own: 'x',
      list: [
        { name: 'p', v: 1, extra: true },
        { name: 'q', v: 2 },
      ],
    };
    const base = {
      a: 1,
      list: [
        { name: 'p', v: 1 },
        { name: 'q', v: 2 },
      ],
    };
    const want = {
      a: 2,
      list: [
        { name: 'p', v: 3 },
        { name: 'r', v: 4 },
      ],
    };
    const key = (item: unknown): string | undefined => (item as { name?: string }).name;
    expect(mergeThreeWay(current, base, want, key)).toEqual({
      a: 2,
      own: 'x',
      list: [
        { name: 'p', v: 3, extra: true },
        { name: 'r', v: 4 },
      ],
    });
  });
});

/** A file's text for `contract` and its parse, when the file validates. */
function validFile(
  contract: DesiredContract,
  style: object,
): { text: string; contract: DesiredContract } | undefined {
  const text = stringify(contract, style as unknown as Parameters<typeof stringify>[1]);
  const read = parseContract(text, 'c.yaml');
  return read.ok ? { text, contract: read.value.contract } : undefined;
}

describe('pullFile', () => {
  it('any catalog value, pulled, validates and leaves plan nothing to change (spec)', () => {
    let pulled = 0;
    fc.assert(
      fc.property(arbitraryContract(), arbitraryContract(), yamlStylesArb, (a, b, style) => {
        const file = validFile(withoutNulls(a), style);
        const liveModel = {
          ...withoutNulls(b),
          name: a.name,
          fullyQualifiedName: a.fullyQualifiedName,
          entity: a.entity,
        };
        fc.pre(file !== undefined && validFile(liveModel, {}) !== undefined);
        const live = { ...liveModel, id: 'c1', version: 0.2 };
        const result = pullFile({
          file: 'c.yaml',
          text: file.text,
          contract: file.contract,
          format: 'native',
          live,
          codec: specCodec,
        });
        if (result.kind === 'same') {
          expect(differingFields(file.contract, live, specCodec)).toEqual([]);
          return;
        }
        expect(result.kind).toBe('pulled');
        if (result.kind !== 'pulled') return;
        pulled += 1;
        const read = parseContract(result.text, 'c.yaml');
        expect(read.ok).toBe(true);
        if (read.ok) expect(differingFields(read.value.contract, live, specCodec)).toEqual([]);
      }),
      { numRuns: 300 },
    );
    expect(pulled).toBeGreaterThan(20);
  });

  it('any value OpenMetadata stores, pulled, leaves plan nothing to change', () => {
    const codec = codecFor('openmetadata', '1.13.0');
    const text =
      'name: t\nfullyQualifiedName: db.t.dataContract_t\nentity: { type: table, fullyQualifiedName: db.t }\nsla:\n  refreshFrequency: PT1H # hourly\ntermsOfUse: Internal.\nsecurity:\n  dataClassification: Public\nowners:\n  - type: team\n    name: sales\nqualityExpectations: []\n';
    const read = parseContract(text, 't.yaml');
    if (!read.ok) throw new Error('fixture');
    const kinds = { same: 0, pulled: 0, refused: 0, spliced: 0 };
    fc.assert(
      fc.property(wireArb, (wire) => {
        const live = {
          ...wire,
          id: 'c1',
          version: 0.3,
          name: 't',
          fullyQualifiedName: 'db.t.dataContract_t',
          entity: { type: 'table', fullyQualifiedName: 'db.t' },
        };
        const result = pullFile({
          file: 't.yaml',
          text,
          contract: read.value.contract,
          format: 'native',
          live,
          codec,
        });
        kinds[result.kind] += 1;
        if (result.kind === 'pulled' && !result.rewritten) kinds.spliced += 1;
        if (result.kind === 'refused') {
          // Only what the file format cannot hold is refused, and said.
          expect(result.reason).toMatch(/would not validate|would still differ/);
          return;
        }
        if (result.kind === 'same') return;
        const again = parseContract(result.text, 't.yaml');
        expect(again.ok).toBe(true);
        if (again.ok) expect(differingFields(again.value.contract, live, codec)).toEqual([]);
        expect(result.text).toContain('name: t\nfullyQualifiedName: db.t.dataContract_t\n');
      }),
      { numRuns: 300 },
    );
    expect(kinds.pulled).toBeGreaterThan(200);
    expect(kinds.spliced).toBeGreaterThan(250);
  });
});
