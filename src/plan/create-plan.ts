// Builds a plan from contract files and the live contracts read for them. Pure and synchronous:
// all reading happens before (readAndPlanEach), all sending after (applyPlan).
import { breaches, type PolicyContext } from '../policy/policies.js';
import { MANAGED_FIELDS, type DesiredContract } from '../model/contract.js';
import type { ContractFile } from '../contract/parse.js';
import { breakingFindings } from '../diff/breaking.js';
import { diffContract } from '../diff/diff-contract.js';
import { guardPatch } from '../diff/guard.js';
import type { JsonObject } from '../model/json-value.js';
import { verifyPatch } from '../diff/verify.js';
import { specCodec, type Codec } from '../profile/codec.js';
import { operationsWithIds } from '../profile/references.js';
import { InternalError } from '../model/errors.js';
import { isBreaking, type Found } from '../model/finding.js';
import { describePatch } from './describe-patch.js';
import { placedChange } from './place-findings.js';
import type { PlanInput, PlanOptions } from './plan-input.js';
import {
  cannotCreate,
  planError,
  refusals,
  strictError,
  strictWarnings,
  type Planned,
} from './refusals.js';
import type { DiffLine, Plan, PlannedChange } from './types.js';
import { assemblePlan, hashContract, type PlanMeta } from './seal.js';

export { assemblePlan, hashContract, planChecksum, type PlanMeta } from './seal.js';
export type { LiveResult, PlanInput, PlanOptions } from './plan-input.js';

/** Why the live contract is not the file's: another asset, or another name. */
function identityProblem(file: ContractFile, live: JsonObject): Found | null {
  const desired = file.contract;
  const entity = (live.entity ?? {}) as { type?: unknown; fullyQualifiedName?: unknown };
  if (
    entity.type !== desired.entity.type ||
    entity.fullyQualifiedName !== desired.entity.fullyQualifiedName
  ) {
    return planError(
      'plan.identity-mismatch',
      `the live contract is bound to ${String(entity.type)} ${String(entity.fullyQualifiedName)}, but the file says ${desired.entity.type} ${desired.entity.fullyQualifiedName}; a contract is never moved to another asset, so nothing will be sent`,
      '/entity',
    );
  }
  if (live.name !== desired.name) {
    return planError(
      'plan.identity-mismatch',
      `the live contract is named '${String(live.name)}', but the file says '${desired.name}'; the catalog does not rename contracts through PATCH, so change the file's name`,
      '/name',
    );
  }
  return null;
}

/**
 * The planned change for one file. A contract naming columns its asset lacks is an error when
 * something would be sent (the catalog would refuse it), a warning when nothing would.
 */
export function planChange(input: PlanInput, options: PlanOptions = {}): PlannedChange {
  // A marker alone is no change: the contract is planned without it when nothing else differs.
  if (input.unmarked !== undefined) {
    const { unmarked, ...rest } = input;
    const bare = changeWithRefusals({ ...rest, file: unmarked }, options);
    if (bare.action === 'noop') return placedChange(bare, unmarked);
  }
  const planned = changeWithRefusals(input, options);
  // A change that would carry the marker says why it does not (once a plan, as a shared note).
  const said =
    input.unmarkedBecause !== undefined &&
    (planned.action === 'update' || planned.action === 'create')
      ? { ...planned, notes: [...planned.notes, unmarkedNote(input.unmarkedBecause)] }
      : planned;
  return placedChange(said, input.file);
}

/** The note of a change whose contract gets no marker, and why. */
export function unmarkedNote(why: string): string {
  return `no marker (extension.managedBy) is written, so --prune will not delete this contract: ${why}`;
}

/**
 * The change from the live contract, then what the catalog would refuse weighed in: a refusal
 * becomes the change's one error (its warnings kept), other findings are added.
 */
function changeWithRefusals(input: PlanInput, options: PlanOptions): Planned {
  const planned = changeFromLive(input, options);
  const { error, warnings, notes } = refusals(input, options, planned);
  if (error !== undefined) {
    // The error replaces any error and breaking change; the warnings stay.
    const { create: _create, ...rest } = planned;
    const kept = planned.found.filter(
      (item) => item.severity === 'warning' && !isBreaking(item.code),
    );
    return { ...rest, action: 'error', patch: [], diff: [], found: [error, ...kept] };
  }
  return warnings.length === 0 && notes.length === 0
    ? planned
    : {
        ...planned,
        found: [...planned.found, ...warnings],
        notes: [...planned.notes, ...notes],
      };
}

/** What the team's policies weigh: the file's contract and the one in force, with what it inherits. */
function policyContext(input: PlanInput, codec: Codec): PolicyContext {
  const { file, live, inherited } = input;
  const own = live.kind === 'found' ? live.contract : null;
  const inForce = inherited === undefined ? own : { ...(own ?? {}), ...inherited.values };
  return {
    contract: file.contract,
    live: inForce === null ? null : codec.fromWire(inForce),
    asset: { piiColumns: input.piiColumns ?? [] },
    ...(inherited === undefined
      ? {}
      : { inherited: { product: inherited.product, fields: Object.keys(inherited.values) } }),
  };
}

/**
 * The change the file makes to its live contract: an update or none, a create when it is missing,
 * or an error (unreadable, another asset or name, a policy broken); the team's policies weighed.
 */
function changeFromLive(input: PlanInput, options: PlanOptions): Planned {
  const { file, live } = input;
  const warnings = [...(input.warnings ?? [])];
  // The team's policies: a warning said, an error the contract's (nothing is applied).
  const found =
    options.policies === undefined || options.policies.length === 0 || live.kind === 'error'
      ? []
      : breaches(options.policies, policyContext(input, options.codec ?? specCodec));
  warnings.push(...found.filter((b) => b.severity === 'warning'));
  const refused = found.filter((b) => b.severity === 'error');
  // One error for every policy the contract breaks, at the field of the first.
  const policyError: Found | undefined =
    refused.length === 0
      ? undefined
      : { ...refused[0]!, message: refused.map((b) => b.message).join('; ') };
  const base = {
    file: file.file,
    fullyQualifiedName: file.contract.fullyQualifiedName,
    patch: [],
    diff: [],
    notes: [...(input.notes ?? [])],
  };
  /** The change with `error`, beside the warnings found. */
  const failed = (error: Found): Pick<Planned, 'action' | 'found'> => ({
    action: 'error',
    found: [...warnings, error],
  });
  const unread = { ...base, id: null, liveVersion: null, liveHash: null };
  if (live.kind === 'error')
    return { ...unread, ...failed(planError('plan.live-unreadable', live.message)) };
  if (live.kind === 'missing')
    return policyError === undefined
      ? createChange(input, { ...unread, found: warnings }, options.codec ?? specCodec, options)
      : {
          ...unread,
          ...failed({
            ...policyError,
            message: `${cannotCreate(file.contract)}${policyError.message}`,
          }),
        };
  const contract = live.contract;
  const known = {
    ...base,
    id: contract.id,
    liveVersion: contract.version,
    liveHash: options.sealed === false ? null : hashContract(contract),
  };
  const problem =
    identityProblem(file, contract) ??
    (input.assetError === undefined
      ? undefined
      : planError('asset.missing', input.assetError, '/entity')) ??
    policyError;
  if (problem !== undefined) return { ...known, ...failed(problem) };
  const strictly = strictWarnings(warnings);
  if (options.strict === true && strictly.length > 0)
    return { ...known, ...failed(strictError(strictly, input.referenceError)) };
  try {
    const codec = options.codec ?? specCodec;
    // Diff and verification on the catalog's shapes; what people read on the file's.
    const wanted = codec.toWire(file.contract);
    const changes = diffContract(contract, wanted, codec.shapes);
    // No change: the diff found the projected managed fields equal, which is what verifying an
    // empty patch would check again.
    if (changes.length === 0) return { ...known, action: 'noop', found: warnings };
    // What apply sends: the minimal patch, its references with their ids, behind guards, verified
    // as a whole.
    const sent =
      input.referenceIds === undefined ? changes : operationsWithIds(changes, input.referenceIds);
    const patch = guardPatch(contract, sent);
    const patched = verifyPatch(contract, wanted, patch, codec.shapes);
    const unkept = codec.unkept?.(contract, patched);
    if (unkept !== undefined && options.strict === true)
      return {
        ...known,
        ...failed({
          ...unkept,
          severity: 'error',
          message: `${unkept.message}; --strict makes this an error, and nothing will be sent for this contract`,
        }),
      };
    // Nothing is planned that the catalog will never keep: the difference stays a warning, at its
    // line, so that plan and drift can reach "no changes".
    if (unkept !== undefined) return { ...known, action: 'noop', found: [...warnings, unkept] };
    // The file's model on both sides: the live contract read back, and the file as the catalog
    // will store it (an accessPolicy written as one of policies, say).
    const seen = codec === specCodec ? contract : codec.fromWire(contract);
    const meant = codec === specCodec ? file.contract : (codec.fromWire(wanted) as DesiredContract);
    return {
      ...known,
      action: 'update',
      patch,
      diff: describePatch(seen, codec === specCodec ? changes : diffContract(seen, meant)),
      found: [...breakingFindings(seen, meant), ...warnings],
    };
  } catch (error) {
    if (!(error instanceof InternalError)) throw error;
    return {
      ...known,
      ...failed(
        planError(
          'plan.internal-error',
          `internal error: the computed patch failed its own verification (${error.message}); nothing will be sent for this contract. Please report this.`,
        ),
      ),
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
function createChange(
  input: PlanInput,
  unread: Omit<Planned, 'action'>,
  codec: Codec,
  options: PlanOptions,
): Planned {
  const desired = input.file.contract;
  const { type, fullyQualifiedName: assetFqn } = desired.entity;
  const fail = (error: Found): Planned => ({
    ...unread,
    action: 'error',
    found: [...unread.found, error],
  });
  if (input.assetError !== undefined)
    return fail(
      planError('asset.missing', `${cannotCreate(desired)}${input.assetError}`, '/entity'),
    );
  if (input.assetId === undefined)
    return {
      ...unread,
      action: 'missing',
      found: [
        ...unread.found,
        planError(
          'plan.missing',
          `the catalog has no contract named ${desired.fullyQualifiedName}, and its asset ${type} ${assetFqn} could not be looked up to create it (see the notes); nothing will be sent for it`,
        ),
      ],
    };
  // What stands in the way first: a wrong name for an asset that has its contract already is
  // that contract's to say, not a new one's.
  if (input.createBlocked !== undefined)
    return fail(planError('plan.create-refused', input.createBlocked));
  // The catalog names a new contract after its asset; the file must use that name to find it.
  const named = `${assetFqn}.dataContract_${desired.name}`;
  if (desired.fullyQualifiedName !== named)
    return fail(
      planError(
        'plan.create-refused',
        `the catalog will name a new contract ${desired.name} on ${type} ${assetFqn} '${named}'; set fullyQualifiedName to that, so that plan finds the contract once it is created`,
      ),
    );
  const strictly = strictWarnings(unread.found);
  const refused = input.referenceError;
  if (options.strict === true && strictly.length > 0)
    return fail(
      strictError(
        strictly,
        refused && { ...refused, message: `${cannotCreate(desired)}${refused.message}` },
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
