// Builds a plan from contract files and the live contracts read for them. Pure and synchronous:
// all reading happens before (planContracts), all sending after (applyPlan).
import { breaches, type PolicyCheck } from '../policy/policies.js';
import { MANAGED_FIELDS, type DesiredContract } from '../contract/model.js';
import type { ContractFile } from '../contract/parse.js';
import { breakingChanges } from '../diff/breaking.js';
import { diffContract } from '../diff/diff-contract.js';
import { guardPatch } from '../diff/guard.js';
import type { JsonObject } from '../diff/json-value.js';
import { applyToCopy, verifyPatch } from '../diff/verify.js';
import { releaseName, stripsOdcsPassthrough } from '../profile/releases.js';
import { specCodec, type Codec } from '../profile/codec.js';
import { operationsWithIds, type ReferenceIds } from '../profile/references.js';
import { InternalError } from '../errors.js';
import { isKeptOnlyInGitWarning } from '../odcs/odcs-file.js';
import { describePatch } from './describe-patch.js';
import {
  joinRefusals,
  lackingColumnsTexts,
  NOTHING_SENT,
  type LackingColumns,
} from './refusal-text.js';
import { weighWrite, writeFrom, type AssetRules, type Write } from './asset-rules.js';
import { plannedChange, type DiffLine, type Plan, type PlannedChange } from './types.js';
import { assemblePlan, hashContract, type PlanMeta } from './seal.js';

export { assemblePlan, hashContract, planChecksum, type PlanMeta } from './seal.js';

/** What was read from the catalog for one contract file. */
export type LiveResult =
  | { kind: 'found'; contract: JsonObject & { id: string; version: number } }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

export interface PlanInput {
  file: ContractFile;
  live: LiveResult;
  /** Notes found while reading (inheritance, skipped checks). */
  notes?: string[];
  /** Live-asset findings: columns the asset lacks or types that differ. */
  warnings?: string[];
  /** The asset itself is missing from the catalog. */
  assetError?: string;
  /** The asset's id, when it was found (a contract the catalog lacks is created on it). */
  assetId?: string;
  /** The asset's columns tagged PII, for the policies that ask. */
  piiColumns?: string[];
  /** Columns of the file its asset lacks, which the catalog refuses. */
  lackingColumns?: LackingColumns;
  /**
   * The ids of the users, teams and test cases the file names (a catalog that stores references
   * by id), for what is sent.
   */
  referenceIds?: ReferenceIds;
  /**
   * Why they could not all be found, and what the catalog refuses in the file's `extension`:
   * said with whatever else the catalog would refuse in the contract.
   */
  referenceError?: string;
  /**
   * Why the catalog would refuse to create the contract the catalog lacks: its asset's own
   * contract has another name, or a deleted contract keeps this one's.
   */
  createBlocked?: string;
  /** The catalog's data asset rules in force for data contracts (OpenMetadata), or why unknown. */
  assetRules?: AssetRules;
}

function identityProblem(file: ContractFile, live: JsonObject): string | null {
  const desired = file.contract;
  const entity = (live.entity ?? {}) as { type?: unknown; fullyQualifiedName?: unknown };
  if (
    entity.type !== desired.entity.type ||
    entity.fullyQualifiedName !== desired.entity.fullyQualifiedName
  ) {
    return `the live contract is bound to ${String(entity.type)} ${String(entity.fullyQualifiedName)}, but the file says ${desired.entity.type} ${desired.entity.fullyQualifiedName}; a contract is never moved to another asset, so nothing will be sent`;
  }
  if (live.name !== desired.name) {
    return `the live contract is named '${String(live.name)}', but the file says '${desired.name}'; the catalog does not rename contracts through PATCH, so change the file's name`;
  }
  return null;
}

export interface PlanOptions {
  /** Live-asset warnings are errors. */
  strict?: boolean;
  /** The connected catalog's codec (the spec profile's by default). */
  codec?: Codec;
  /** The team's policies (`policies:` of .contracts.yaml), checked on every planned contract. */
  policies?: readonly PolicyCheck[];
  /**
   * Hash each live contract read (`liveHash`), which a saved plan and apply are checked against
   * (default true). A plan that is only shown, never saved or applied, leaves it null: with the
   * plan's checksum, made only when read, that is about 5% of the CPU of a plan of 10,000.
   */
  sealed?: boolean;
}

/** How the error of a contract that cannot be created starts. */
function cannotCreate(desired: DesiredContract): string {
  return `the catalog has no contract named ${desired.fullyQualifiedName}, and it cannot be created: `;
}

/**
 * The warnings --strict makes errors: all but what an ODCS file keeps only in git, which is said,
 * never an error (no edit of the file could change it).
 */
function strictWarnings(warnings: readonly string[]): string[] {
  return warnings.filter((warning) => !isKeptOnlyInGitWarning(warning));
}

/** Live-asset warnings under --strict, after the references the catalog lacks (`refused`). */
function strictError(warnings: readonly string[], refused: string | undefined): string {
  const text = `live-asset check failed (--strict): ${warnings.join('; ')}`;
  return refused === undefined ? text : joinRefusals([refused, text]);
}

/**
 * The planned change for one file. A contract naming columns its asset lacks is an error when
 * something would be sent (the catalog would refuse it), a warning when nothing would.
 */
export function planChange(input: PlanInput, options: PlanOptions = {}): PlannedChange {
  return plannedChange(planChecked(input, options));
}

/**
 * What the live contract holds that the catalog refuses on every PATCH and the file leaves as it
 * is, as a warning (nothing sent) and an error (else); undefined when there is none.
 */
function refusedLiveTexts(
  input: PlanInput,
  codec: PlanOptions['codec'],
): { warning: string; error: string } | undefined {
  if (input.live.kind !== 'found' || codec?.refusedLive === undefined) return undefined;
  const refused = codec.refusedLive(input.live.contract, input.file.contract);
  if (refused.length === 0) return undefined;
  const fields = refused.map((r) => r.field);
  const them = fields.length === 1 ? 'it' : 'them';
  const text = `the live contract holds ${fields.join(' and ')} that the catalog refuses on every PATCH (${refused.map((r) => r.why).join('; and ')}), and this file leaves ${them} out: the catalog refuses (400) any change to this contract while ${them === 'it' ? 'it is' : 'they are'} there`;
  return {
    warning: `${text}; nothing is sent while the file matches it`,
    error: `${text}. To change the contract, ${refused.map((r) => r.mend).join(', and ')}${NOTHING_SENT}`,
  };
}

/** The write `planned` makes, for the catalog's data asset rules; undefined when it makes none. */
function writeOf(input: PlanInput, planned: PlannedChange, codec: Codec): Write | undefined {
  const fileOwners = input.file.contract.owners;
  if (planned.action === 'create')
    return writeFrom(null, codec.toWire(input.file.contract), fileOwners);
  if (input.live.kind !== 'found') return undefined;
  const live = input.live.contract;
  if (planned.action === 'noop') return { ...writeFrom(live, live, fileOwners), sent: false };
  return planned.action === 'update'
    ? writeFrom(live, applyToCopy(live, planned.patch), fileOwners)
    : undefined;
}

/**
 * What the catalog would refuse (400) in `planned`: what the live contract holds that it refuses
 * on every PATCH (refusedLiveTexts), when the contract is changed; the data asset rules the
 * contract it leaves breaks, and columns its asset lacks, when it is created or changed. All of
 * them are the contract's error while something would be sent (or under --strict), so that one
 * run says everything to mend; warnings while nothing would.
 */
function refusals(
  input: PlanInput,
  options: PlanOptions,
  planned: PlannedChange,
): { error?: string; warnings: string[]; notes: string[] } {
  const { action } = planned;
  const found: { error: string; warning: string | undefined }[] = [];
  // Values the connected release refuses that a newer one stores, at their own fields.
  if (action === 'update' || action === 'create')
    for (const refused of options.codec?.refusedByRelease?.(input.file.contract) ?? [])
      found.push({ error: refused.message, warning: undefined });
  // References the catalog lacks (or refuses) and extension keys it does not define come first,
  // at their items, with everything else the catalog would refuse.
  if (input.referenceError !== undefined && (action === 'update' || action === 'create'))
    found.push({
      error:
        action === 'create'
          ? `${cannotCreate(input.file.contract)}${input.referenceError}`
          : input.referenceError,
      warning: undefined,
    });
  if (action === 'update' || action === 'noop') {
    const refused = refusedLiveTexts(input, options.codec);
    if (refused !== undefined) found.push(refused);
  }
  const write =
    input.assetRules === undefined
      ? undefined
      : writeOf(input, planned, options.codec ?? specCodec);
  const ruled = write === undefined ? undefined : weighWrite(write, input.assetRules!);
  if (ruled?.refusal !== undefined) found.push(ruled.refusal);
  const lacking = input.lackingColumns;
  if (lacking !== undefined && action !== 'error' && action !== 'missing')
    found.push(lackingColumnsTexts(input.file, lacking));
  const notes = ruled?.notes ?? [];
  if (found.length > 0 && (action !== 'noop' || options.strict === true))
    return { error: joinRefusals(found.map(({ error }) => error)), warnings: [], notes };
  const warnings = found.flatMap(({ warning }) => warning ?? []);
  const stripped = action === 'update' ? passthroughLost(input, options.codec) : undefined;
  return {
    warnings: [...warnings, ...(ruled?.warnings ?? []), ...(stripped ?? [])],
    notes,
  };
}

/**
 * A warning when the change would strip the live contract's ODCS passthrough: OpenMetadata 2.0.0
 * drops `odcsElementExtensions` on any update that is not an ODCS import (fixed in 2.0.1,
 * open-metadata/OpenMetadata#31145).
 */
function passthroughLost(input: PlanInput, codec: Codec | undefined): string[] | undefined {
  if (input.live.kind !== 'found' || codec === undefined || !stripsOdcsPassthrough(codec.release))
    return undefined;
  if (input.live.contract.odcsElementExtensions === undefined) return undefined;
  return [
    `${releaseName(codec.release)} drops what this contract keeps of its ODCS document (odcsElementExtensions) on any change that is not an ODCS import, this one too (open-metadata/OpenMetadata#31145, fixed in 2.0.1): upgrade the server before applying, or keep that part of the document elsewhere`,
  ];
}

function planChecked(input: PlanInput, options: PlanOptions): PlannedChange {
  const planned = planFromLive(input, options);
  const { error, warnings, notes } = refusals(input, options, planned);
  if (error !== undefined) {
    const { create: _create, ...rest } = planned;
    return { ...rest, action: 'error', patch: [], breaking: [], diff: [], error };
  }
  return warnings.length === 0 && notes.length === 0
    ? planned
    : {
        ...planned,
        warnings: [...planned.warnings, ...warnings],
        notes: [...planned.notes, ...notes],
      };
}

function planFromLive(input: PlanInput, options: PlanOptions): PlannedChange {
  const { file, live } = input;
  const warnings = [...(input.warnings ?? [])];
  // The team's policies: a warning said, an error the contract's (nothing is applied).
  const found =
    options.policies === undefined || options.policies.length === 0 || live.kind === 'error'
      ? []
      : breaches(options.policies, {
          contract: file.contract,
          live: live.kind === 'found' ? (options.codec ?? specCodec).fromWire(live.contract) : null,
          asset: { piiColumns: input.piiColumns ?? [] },
        });
  warnings.push(...found.filter((b) => b.severity === 'warning').map((b) => b.message));
  const refused = found.filter((b) => b.severity === 'error').map((b) => b.message);
  const policyError = refused.length === 0 ? undefined : refused.join('; ');
  const base = {
    file: file.file,
    fullyQualifiedName: file.contract.fullyQualifiedName,
    patch: [],
    breaking: [],
    diff: [],
    warnings,
    notes: [...(input.notes ?? [])],
  };
  if (live.kind === 'error')
    return {
      ...base,
      id: null,
      liveVersion: null,
      liveHash: null,
      action: 'error',
      error: live.message,
    };
  if (live.kind === 'missing')
    return policyError === undefined
      ? planCreate(input, base, options.codec ?? specCodec, options)
      : {
          ...base,
          id: null,
          liveVersion: null,
          liveHash: null,
          action: 'error',
          error: `${cannotCreate(file.contract)}${policyError}`,
        };
  const contract = live.contract;
  const known = {
    id: contract.id,
    liveVersion: contract.version,
    liveHash: options.sealed === false ? null : hashContract(contract),
  };
  const problem = identityProblem(file, contract) ?? input.assetError ?? policyError ?? null;
  if (problem !== null) return { ...base, ...known, action: 'error', error: problem };
  const strictly = strictWarnings(warnings);
  if (options.strict === true && strictly.length > 0)
    return {
      ...base,
      ...known,
      action: 'error',
      error: strictError(strictly, input.referenceError),
    };
  try {
    const codec = options.codec ?? specCodec;
    // Diff and verification on the catalog's shapes; what people read on the file's.
    const wanted = codec.toWire(file.contract);
    const changes = diffContract(contract, wanted, codec.shapes);
    // No change: the diff found the projected managed fields equal, which is what verifying an
    // empty patch would check again.
    if (changes.length === 0) return { ...base, ...known, action: 'noop', error: null };
    // What apply sends: the minimal patch, its references with their ids, behind guards, verified
    // as a whole.
    const sent =
      input.referenceIds === undefined ? changes : operationsWithIds(changes, input.referenceIds);
    const patch = guardPatch(contract, sent);
    const patched = verifyPatch(contract, wanted, patch, codec.shapes);
    const unkept = codec.unkept?.(contract, patched);
    if (unkept !== undefined && options.strict === true)
      return {
        ...base,
        ...known,
        action: 'error',
        error: `${unkept}; --strict makes this an error, and nothing will be sent for this contract`,
      };
    // Nothing is planned that the catalog will never keep: the difference stays a warning, at its
    // line, so that plan and drift can reach "no changes".
    if (unkept !== undefined) {
      warnings.push(unkept);
      return { ...base, ...known, action: 'noop', error: null };
    }
    // The file's model on both sides: the live contract read back, and the file as the catalog
    // will store it (an accessPolicy written as one of policies, say).
    const seen = codec === specCodec ? contract : codec.fromWire(contract);
    const meant = codec === specCodec ? file.contract : (codec.fromWire(wanted) as DesiredContract);
    return {
      ...base,
      ...known,
      action: 'update',
      patch,
      breaking: breakingChanges(seen, meant),
      diff: describePatch(seen, codec === specCodec ? changes : diffContract(seen, meant)),
      error: null,
    };
  } catch (error) {
    if (!(error instanceof InternalError)) throw error;
    return {
      ...base,
      ...known,
      action: 'error',
      error: `internal error: the computed patch failed its own verification (${error.message}); nothing will be sent for this contract. Please report this.`,
    };
  }
}

/** The managed fields a new contract gets, as people read them. */
function createLines(desired: DesiredContract): DiffLine[] {
  return MANAGED_FIELDS.filter(
    (field) => desired[field] !== undefined && desired[field] !== null,
  ).map((field) => ({ symbol: '+', field, after: desired[field] }));
}

/** The change for a file whose contract the catalog lacks: created on its asset, if it exists. */
function planCreate(
  input: PlanInput,
  base: Omit<PlannedChange, 'id' | 'liveVersion' | 'liveHash' | 'action' | 'error'>,
  codec: Codec,
  options: PlanOptions,
): PlannedChange {
  const desired = input.file.contract;
  const { type, fullyQualifiedName: assetFqn } = desired.entity;
  const unread = { ...base, id: null, liveVersion: null, liveHash: null };
  const fail = (error: string): PlannedChange => ({ ...unread, action: 'error', error });
  if (input.assetError !== undefined) return fail(`${cannotCreate(desired)}${input.assetError}`);
  if (input.assetId === undefined)
    return {
      ...unread,
      action: 'missing',
      error: `the catalog has no contract named ${desired.fullyQualifiedName}, and its asset ${type} ${assetFqn} could not be looked up to create it (see the notes); nothing will be sent for it`,
    };
  // The catalog names a new contract after its asset; the file must use that name to find it.
  const named = `${assetFqn}.dataContract_${desired.name}`;
  if (desired.fullyQualifiedName !== named)
    return fail(
      `the catalog will name a new contract ${desired.name} on ${type} ${assetFqn} '${named}'; set fullyQualifiedName to that, so that plan finds the contract once it is created`,
    );
  if (input.createBlocked !== undefined) return fail(input.createBlocked);
  const strictly = strictWarnings(base.warnings);
  if (options.strict === true && strictly.length > 0)
    return fail(
      strictError(
        strictly,
        input.referenceError && `${cannotCreate(desired)}${input.referenceError}`,
      ),
    );
  return {
    ...unread,
    action: 'create',
    create: {
      assetId: input.assetId,
      assetType: type,
      assetFullyQualifiedName: assetFqn,
      body: codec.createBody(desired, { id: input.assetId, type }, input.referenceIds),
    },
    diff: createLines(codec.fromWire(codec.toWire(desired)) as DesiredContract),
    error: null,
  };
}

export function createPlan(
  inputs: readonly PlanInput[],
  meta: PlanMeta,
  options: PlanOptions = {},
): Plan {
  return assemblePlan(
    inputs.map((input) => planChange(input, options)),
    meta,
  );
}
