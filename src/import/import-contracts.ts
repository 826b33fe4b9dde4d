// Turns live contracts into contract files: only managed fields, in the schema's key order, with
// the schema comment, under a file name that can never leave the output directory.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { yamlLibrary } from '../support/yaml-library.js';
import type { LiveContract } from '../catalog/client.js';
import { FIELD_SHAPES, MANAGED_FIELDS } from '../model/contract.js';
import { withoutMarker } from '../read/marker.js';
import { parseContract } from '../contract/parse.js';
import { FORBIDDEN_KEYS } from '../contract/value-checks.js';
import { noItems, project } from '../diff/project.js';
import { specCodec, type Codec } from '../profile/codec.js';

/** The first key in `value`, at any depth, that a contract file cannot hold, as a dotted path. */
function forbiddenKeyPath(value: unknown, at: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const here = Array.isArray(value) ? `${at}[${key}]` : `${at}.${key}`;
    if (!Array.isArray(value) && FORBIDDEN_KEYS.has(key)) return here;
    const inner = forbiddenKeyPath(child, here);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Longest file name stem written for an FQN. */
const MAX_STEM = 100;

/**
 * A file name for a contract FQN: the FQN itself when it is made only of letters, digits, `.`,
 * `_` and `-`; otherwise a cleaned stem plus a short hash of the FQN (so two FQNs that clean up
 * alike still get two files). Never empty, never `..`, never a path.
 */
export function fileNameFor(fqn: string, suffix = '.yaml'): string {
  let stem = fqn
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '');
  const changed = stem !== fqn || stem.length > MAX_STEM;
  if (stem.length > MAX_STEM) stem = stem.slice(0, MAX_STEM).replace(/[._-]+$/, '');
  if (stem === '') stem = 'contract';
  if (changed) stem += `-${createHash('sha256').update(fqn).digest('hex').slice(0, 10)}`;
  return `${stem}${suffix}`;
}

/** The absolute path of the file for `fqn` inside `directory`; throws if it would leave it. */
export function filePathFor(directory: string, fqn: string, suffix = '.yaml'): string {
  const root = path.resolve(directory);
  const full = path.resolve(root, fileNameFor(fqn, suffix));
  if (path.dirname(full) !== root) throw new Error(`refusing to write outside ${root}: ${full}`);
  return full;
}

export interface ImportedFile {
  text: string;
  /** The contract as the file holds it, in the file's model. */
  document: Record<string, unknown>;
  /** Fields left out because the file format cannot hold their live value, with the reason. */
  leftOut: string[];
}

/** The contract file for a live contract; `schemaPath` is the schema comment's target. */
export function contractFileText(
  wire: LiveContract,
  schemaPath: string,
  codec: Codec = specCodec,
): ImportedFile {
  // The file's model of the contract, whatever shapes the catalog stores it in.
  // Without the tool's marker: a file never holds it (read/marker.ts).
  const live = withoutMarker(codec.fromWire(wire)) as LiveContract;
  const document: Record<string, unknown> = {
    name: live.name,
    fullyQualifiedName: live.fullyQualifiedName,
    entity: { type: live.entity.type, fullyQualifiedName: live.entity.fullyQualifiedName },
  };
  const leftOut: string[] = [];
  for (const field of MANAGED_FIELDS) {
    const value = live[field];
    const shape = FIELD_SHAPES.get(field)!;
    // A key a contract file cannot hold (`__proto__`, `constructor`, `prototype`) keeps its whole
    // field unmanaged: a file without the key would plan to remove it.
    const forbidden = forbiddenKeyPath(value, field);
    if (forbidden !== undefined) {
      leftOut.push(`${field} (it holds the key ${forbidden}, which a contract file cannot hold)`);
      continue;
    }
    // A list with no items (OpenMetadata answers `owners: []` for none) stays out of the file,
    // like a field the contract does not have: written, it would forbid what others add later.
    if (value !== undefined && value !== null && !noItems(value, shape))
      document[field] = project(value, shape);
  }
  for (let attempt = 0; attempt < MANAGED_FIELDS.length + 1; attempt++) {
    const text = `# yaml-language-server: $schema=${schemaPath}\n${yamlLibrary().stringify(document, { lineWidth: 0 })}`;
    const parsed = parseContract(text, 'imported.yaml');
    // Live values the file format cannot hold (newer server statuses, lowercase types, ...), or
    // that the catalog would refuse in a change (a schema in a dashboard's contract, stored before
    // OpenMetadata's rule), stay unmanaged: the field is left out of the file, and said so.
    const problems = parsed.ok
      ? codec.unstorable(parsed.value.contract).map((found) => ({
          field: found.pointer.split('/')[1]!,
          message: found.message,
        }))
      : parsed.problems.map((problem) => ({
          field: problem.path.split(/[.[]/)[0]!,
          message: problem.message,
        }));
    const fields = new Set(
      problems.map((problem) => problem.field).filter((field) => MANAGED_FIELDS.includes(field)),
    );
    if (parsed.ok && fields.size === 0) return { text, leftOut, document };
    if (fields.size === 0)
      throw new Error(
        `the live contract cannot be written as a contract file: ${problems.map((p) => p.message).join('; ')}`,
      );
    for (const field of fields) {
      const reason = problems.find((problem) => problem.field === field)!.message;
      leftOut.push(`${field} (${reason})`);
      delete document[field];
    }
  }
  throw new Error('the live contract cannot be written as a contract file');
}
