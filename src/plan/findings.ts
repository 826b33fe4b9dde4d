// What a plan found, each at its exact place in its file: errors, breaking changes and live-asset
// warnings, for annotations (the Action's, and `plan --format github`).
import type { DesiredContract } from '../contract/model.js';
import { positionOf, type ContractFile } from '../contract/parse.js';
import { isUnkeptWarning } from '../profile/unkept.js';
import { keptOnlyInGitLine } from '../odcs/odcs-file.js';
import type { Plan } from './types.js';

export interface Finding {
  level: 'error' | 'warning';
  title: string;
  message: string;
  file: string;
  line: number;
  column: number;
}

function columnIndex(schema: unknown, name: string): number {
  return Array.isArray(schema)
    ? (schema as { name?: unknown }[]).findIndex((column) => column.name === name)
    : -1;
}

/** The list fields as a warning names them. */
const LIST_FIELDS: Record<string, string> = {
  columns: 'schema',
  'semantics rules': 'semantics',
  'quality expectations': 'qualityExpectations',
  owners: 'owners',
  reviewers: 'reviewers',
};

/** The JSON pointer in `file` a breaking change or a warning is about (its own line, if it has one). */
export function findingPointer(message: string, file: ContractFile): string {
  // A team's policy breached: at the field it concerns (`policy owner-required (owners): …`).
  const policy = /(?:^|: |; )policy \S+ \((\w+)\)/.exec(message);
  if (policy !== null) return `/${policy[1]!}`;
  // Read once, and only if the message needs it: a planned file reads its contract from disk.
  let held: DesiredContract | undefined;
  const contract = (): DesiredContract => (held ??= file.contract);
  const column =
    /^columns? ([^\s,]+)(?:, [^\s,]+)* (?:(type changed)|constraint \S+ (dropped)|(?:is|are) not among|is .* in the contract but)/.exec(
      message,
    );
  // A change the catalog would not keep: at the first column property it names.
  const property = /^column (\S+?)'s (\w+)/.exec(message);
  if (property !== null) {
    const i = columnIndex(contract().schema, property[1]!);
    if (i === -1) return '/schema';
    const named = (contract().schema as Record<string, unknown>[])[i]!;
    return named[property[2]!] === undefined ? `/schema/${i}` : `/schema/${i}/${property[2]!}`;
  }
  const order =
    /^the (?:order|empty list) of the (columns|semantics rules|quality expectations|owners|reviewers)/.exec(
      message,
    );
  if (order !== null) return `/${LIST_FIELDS[order[1]!]!}`;
  const renamed = /^column \S+ renamed to (\S+)/.exec(message);
  if (renamed !== null) {
    const i = columnIndex(contract().schema, renamed[1]!);
    return i === -1 ? '/schema' : `/schema/${i}/name`;
  }
  if (column !== null) {
    const i = columnIndex(contract().schema, column[1]!);
    if (i === -1) return '/schema';
    if (column[2] !== undefined || / in the contract but /.test(message))
      return `/schema/${i}/dataType`;
    if (column[3] !== undefined)
      return (contract().schema as Record<string, unknown>[])[i]!.constraint === undefined
        ? `/schema/${i}`
        : `/schema/${i}/constraint`;
    return `/schema/${i}/name`;
  }
  if (message.startsWith('column')) return '/schema';
  // A reference the catalog lacks: at the item that names it.
  const reference = /\b(owners|reviewers|qualityExpectations)\[(\d+)\]/.exec(message);
  if (reference !== null) return `/${reference[1]}/${reference[2]}`;
  if (message.startsWith('semantics')) return '/semantics';
  // A custom property the catalog lacks: at its key in `extension`.
  const key = /^extension\.(\S+) /.exec(message)?.[1];
  if (key !== undefined) {
    const extension = contract().extension as Record<string, unknown> | null | undefined;
    return extension?.[key] === undefined
      ? '/extension'
      : `/extension/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  if (message.startsWith('extension')) return '/extension';
  const sla = /^SLA (refresh frequency|max latency|availability)/.exec(message);
  if (sla !== null) {
    const property = {
      'refresh frequency': 'refreshFrequency',
      'max latency': 'maxLatency',
      availability: 'availability',
    }[sla[1] as 'refresh frequency' | 'max latency' | 'availability'];
    const value = contract().sla as Record<string, unknown> | null | undefined;
    return value?.[property] === undefined ? '/sla' : `/sla/${property}`;
  }
  if (message.startsWith('SLA')) return '/sla';
  if (message.startsWith('status') || message.startsWith('entityStatus')) return '/entityStatus';
  // A data asset rule the contract breaks: at the first field it reads that the file sets.
  const rule = /data asset rule ".*?, which reads ([\w, ]+)/.exec(message);
  const field = rule?.[1]!
    .split(', ')
    .find((name) => (contract() as Record<string, unknown>)[name] !== undefined);
  if (field !== undefined) return `/${field}`;
  return '/fullyQualifiedName';
}

/** Every finding of `plan`, at its place in the files it came from. */
export function planFindings(plan: Plan, files: readonly ContractFile[]): Finding[] {
  const byFile = new Map(files.map((file) => [file.file, file]));
  const findings: Finding[] = [];
  for (const change of plan.changes) {
    const file = byFile.get(change.file);
    /** A finding about `about` (a breaking change or a warning), at the field it names. */
    const at = (
      level: Finding['level'],
      title: string,
      message: string,
      about?: string,
    ): Finding => {
      const pointer =
        about === undefined || file === undefined
          ? '/fullyQualifiedName'
          : findingPointer(about, file);
      // A top-level field at its key (`schema:` for a removed column), a nested one at its value.
      const place = file === undefined ? { line: 1, column: 1 } : positionOf(file, pointer);
      return { level, title, message, file: change.file, line: place.line, column: place.column };
    };
    if (change.error !== null)
      findings.push(
        at(
          'error',
          change.action === 'missing'
            ? 'contract missing in the catalog'
            : /(?:^|: |; )policy \S+ \(/.test(change.error)
              ? 'policy breach'
              : 'contract cannot be planned',
          change.error,
          change.error,
        ),
      );
    for (const breaking of change.breaking)
      findings.push(
        at('warning', 'breaking data contract change', `breaking: ${breaking}`, breaking),
      );
    for (const warning of change.warnings) {
      // What an ODCS file keeps only in git: at the first thing it names, whose line it says.
      const kept = keptOnlyInGitLine(warning);
      if (kept !== undefined) {
        findings.push({
          level: 'warning',
          title: 'kept only in git',
          message: warning,
          file: change.file,
          line: kept,
          column: 1,
        });
        continue;
      }
      findings.push(
        at(
          'warning',
          warning.startsWith('policy ')
            ? 'policy breach'
            : isUnkeptWarning(warning)
              ? 'change the catalog will not keep'
              : 'live-asset check',
          warning,
          warning,
        ),
      );
    }
  }
  return findings;
}
