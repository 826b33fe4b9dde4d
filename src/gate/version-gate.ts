// The version gate of a pull request (and `plan --changed-since REF`): each planned file that
// declares its semantic version (our `contractVersion`, an ODCS document's `version`) must bump it
// as far as its change needs against the base's: a breaking change a major bump (a minor one below
// 1.0.0), an additive change a minor one (a patch one below 1.0.0), a change of text alone any or
// none. A break acknowledged in the settings file (acknowledgedBreaks) is let through until its
// expiry; an expired or unused acknowledgement is a warning naming it.
import path from 'node:path';
import { load } from 'js-yaml';
import { positionOf, type ContractFile } from '../contract/positions.js';
import type { Problem } from '../model/problem.js';
import type { Acknowledgement } from '../settings/settings-file.js';
import type { Plan, PlannedChange } from '../plan/types.js';

type Bump = 'none' | 'patch' | 'minor' | 'major';
const RANK: Readonly<Record<Bump, number>> = { none: 0, patch: 1, minor: 2, major: 3 };

/** Fields whose change is text alone: any bump or none. */
const TEXT_FIELDS = new Set(['description', 'termsOfUse']);

export interface GateResult {
  /** Missing or wrong bumps, each at its version's line. */
  errors: Problem[];
  /** Expired or unused acknowledgements. */
  warnings: string[];
  /** Breaks let through by an acknowledgement. */
  notes: string[];
}

/** A file's declared version and where it is: `contractVersion`, or an ODCS document's `version`. */
export function declaredVersion(
  text: string,
  odcs: boolean,
): { version: string; pointer: string } | undefined {
  let value: unknown;
  try {
    value = load(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const key = odcs ? 'version' : 'contractVersion';
  const version = (value as Record<string, unknown>)[key];
  return typeof version === 'string' || typeof version === 'number'
    ? { version: String(version), pointer: `/${key}` }
    : undefined;
}

/** A semantic version's numbers (MAJOR.MINOR.PATCH, a pre-release or build after it). */
function parse(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(version.trim());
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * A base's version, read leniently: the catalog's own `0.4` (MAJOR.MINOR, as an import before
 * semantic versions wrote it) is 0.4.0, so that what it changes into is still weighed.
 */
function parseBase(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** The bump from `base` to `head`; `down` when it goes back. */
function bumpOf(base: [number, number, number], head: [number, number, number]): Bump | 'down' {
  for (const [i, bump] of [
    [0, 'major'],
    [1, 'minor'],
    [2, 'patch'],
  ] as const) {
    if (head[i] > base[i]) return bump;
    if (head[i] < base[i]) return 'down';
  }
  return 'none';
}

/** `version` as a semantic version: itself when it is one, `0.4` → `0.4.0`, else `1.0.0`. */
export function semanticLike(version: string): string {
  if (parse(version) !== undefined) return version.trim();
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(version.trim());
  return match === null ? '1.0.0' : `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

/** What `change` needs, given the version it starts from, and why. */
function needed(
  change: PlannedChange,
  breaks: readonly string[],
  base: [number, number, number],
): { bump: Bump; why: string } {
  const below1 = base[0] === 0;
  if (breaks.length > 0)
    return { bump: below1 ? 'minor' : 'major', why: `breaking: ${breaks.join('; ')}` };
  const fields = new Set(change.diff.map((line) => line.field.split(/[.[]/)[0]!));
  if ([...fields].some((field) => !TEXT_FIELDS.has(field)))
    return {
      bump: below1 ? 'patch' : 'minor',
      why: `it changes ${[...fields].filter((f) => !TEXT_FIELDS.has(f)).join(', ')}`,
    };
  return { bump: 'none', why: 'it changes text alone' };
}

/** Whether `ack` is still in force on `today` (YYYY-MM-DD): through its `expires` day. */
const inForce = (ack: Acknowledgement, today: string): boolean => ack.expires >= today;

export async function versionGate(options: {
  plan: Plan;
  files: readonly ContractFile[];
  cwd: string;
  /** The base's text of a file (absolute path), undefined when the base has none. */
  baseText: (absolute: string) => Promise<string | undefined>;
  acknowledgements: readonly Acknowledgement[];
  /** Today, YYYY-MM-DD. */
  today: string;
}): Promise<GateResult> {
  const result: GateResult = { errors: [], warnings: [], notes: [] };
  const byFile = new Map(options.files.map((file) => [file.file, file]));
  const used = new Set<Acknowledgement>();
  const planned = new Set(options.plan.changes.map((change) => change.fullyQualifiedName));
  for (const change of options.plan.changes) {
    if (change.action !== 'update' && change.action !== 'noop') continue;
    const file = byFile.get(change.file);
    if (file === undefined) continue;
    const odcs = file.format === 'odcs';
    const head = declaredVersion(file.text, odcs);
    const baseText = await options.baseText(path.resolve(options.cwd, change.file));
    const base = baseText === undefined ? undefined : declaredVersion(baseText, odcs);
    if (base === undefined) continue;
    const at = (pointer: string, message: string): Problem => {
      const { line, column } = positionOf(file, pointer, true, odcs);
      return { file: change.file, line, column, path: pointer.slice(1), message };
    };
    if (head === undefined) {
      result.errors.push(
        at(
          '',
          `${odcs ? 'version' : 'contractVersion'} ${base.version} was removed; keep the contract's version and bump it as its change needs`,
        ),
      );
      continue;
    }
    const [from, to] = [parseBase(base.version), parse(head.version)];
    if (to === undefined) {
      // A version the gate cannot weigh would let any change through: it must be semantic.
      result.errors.push(
        at(
          head.pointer,
          `${odcs ? 'version' : 'contractVersion'} ${head.version} is not a semantic version (MAJOR.MINOR.PATCH, such as ${semanticLike(head.version)}); the version gate weighs each change against it`,
        ),
      );
      continue;
    }
    if (from === undefined) continue;
    const breaks = change.breaking.filter((breaking) => {
      const ack = options.acknowledgements.find(
        (a) => a.contract === change.fullyQualifiedName && a.change === breaking,
      );
      if (ack === undefined) return true;
      used.add(ack);
      if (!inForce(ack, options.today)) return true;
      result.notes.push(
        `${change.fullyQualifiedName}: breaking change acknowledged in .contracts.yaml: ${breaking} (${ack.reason}; until ${ack.expires}${ack.ticket === undefined ? '' : `; ${ack.ticket}`})`,
      );
      return false;
    });
    const need = needed(change, breaks, from);
    const bump = bumpOf(from, to);
    const key = odcs ? 'version' : 'contractVersion';
    if (bump === 'down')
      result.errors.push(
        at(
          head.pointer,
          `${key} ${base.version} → ${head.version} goes back; a version only moves forward`,
        ),
      );
    else if (RANK[bump] < RANK[need.bump])
      result.errors.push(
        at(
          head.pointer,
          `${key} ${base.version} → ${head.version} is ${bump === 'none' ? 'no bump' : `a ${bump} bump`}, but this change needs a ${need.bump} one: ${need.why}${need.bump === 'major' || (need.bump === 'minor' && from[0] === 0) ? ' (or acknowledge the break in .contracts.yaml)' : ''}`,
        ),
      );
  }
  for (const ack of options.acknowledgements) {
    if (!planned.has(ack.contract)) continue;
    if (used.has(ack) && !inForce(ack, options.today))
      result.warnings.push(
        `the acknowledgement of "${ack.change}" on ${ack.contract} expired on ${ack.expires}: it no longer lets the break through; renew it or bump the version`,
      );
    else if (!used.has(ack))
      result.warnings.push(
        `the acknowledgement of "${ack.change}" on ${ack.contract} lets nothing through (the plan has no such break): remove it from .contracts.yaml`,
      );
  }
  return result;
}
