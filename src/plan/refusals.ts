// What the catalog would refuse in a planned contract, said at once so that one run tells
// everything to mend, each part made where its fact is known and placed at the first thing it
// says; and the warnings --strict makes an error.
import type { DesiredContract } from '../model/contract.js';
import { applyToCopy } from '../diff/verify.js';
import { WHOLE_CONTRACT, type Found } from '../model/finding.js';
import { releaseName, stripsOdcsPassthrough } from '../profile/releases.js';
import { specCodec, type Codec } from '../profile/codec.js';
import { weighWrite, writeFrom, type Write } from './asset-rules.js';
import type { PlanInput, PlanOptions } from './plan-input.js';
import { joinRefusals, lackingColumnsTexts, NOTHING_SENT } from './refusal-text.js';
import type { PlannedChange } from './types.js';

/** A change as planned, before its findings are placed: what it found, typed, in order. */
export type Planned = Omit<PlannedChange, 'breaking' | 'warnings' | 'error' | 'findings'> & {
  found: Found[];
};

/** How the error of a contract that cannot be created starts. */
export function cannotCreate(desired: DesiredContract): string {
  return `the catalog has no contract named ${desired.fullyQualifiedName}, and it cannot be created: `;
}

/** The error that keeps a contract from being sent, at a field (`pointer`) of it. */
export function planError(code: Found['code'], message: string, pointer = WHOLE_CONTRACT): Found {
  return { code, severity: 'error', message, pointer };
}

/** `errors` as one error (joinRefusals), at the place of the first. */
function joinedError(errors: readonly Found[]): Found {
  return { ...errors[0]!, message: joinRefusals(errors.map((error) => error.message)) };
}

/**
 * The warnings --strict makes errors: all but what an ODCS file keeps only in git, which is said,
 * never an error (no edit of the file could change it).
 */
export function strictWarnings(found: readonly Found[]): Found[] {
  return found.filter(
    (warning) => warning.severity === 'warning' && warning.code !== 'odcs.kept-only-in-git',
  );
}

/** Live-asset warnings under --strict, after the references the catalog lacks (`refused`). */
export function strictError(warnings: readonly Found[], refused: Found | undefined): Found {
  const text: Found = {
    ...warnings[0]!,
    severity: 'error',
    message: `live-asset check failed (--strict): ${warnings.map((w) => w.message).join('; ')}`,
  };
  return refused === undefined ? text : joinedError([refused, text]);
}

/**
 * What the live contract holds that the catalog refuses on every PATCH and the file leaves as it
 * is, as a warning (nothing sent) and an error (else); undefined when there is none.
 */
function refusedLiveTexts(
  input: PlanInput,
  codec: PlanOptions['codec'],
): { warning: Found; error: Found } | undefined {
  if (input.live.kind !== 'found' || codec?.refusedLive === undefined) return undefined;
  const refused = codec.refusedLive(input.live.contract, input.file.contract);
  if (refused.length === 0) return undefined;
  const fields = refused.map((r) => r.field);
  const them = fields.length === 1 ? 'it' : 'them';
  const text = `the live contract holds ${fields.join(' and ')} that the catalog refuses on every PATCH (${refused.map((r) => r.why).join('; and ')}), and this file leaves ${them} out: the catalog refuses (400) any change to this contract while ${them === 'it' ? 'it is' : 'they are'} there`;
  // The file leaves the field out: the finding is the contract's as a whole.
  return {
    warning: {
      code: 'catalog.live-field-refused',
      severity: 'warning',
      message: `${text}; nothing is sent while the file matches it`,
      pointer: WHOLE_CONTRACT,
    },
    error: planError(
      'catalog.live-field-refused',
      `${text}. To change the contract, ${refused.map((r) => r.mend).join(', and ')}${NOTHING_SENT}`,
    ),
  };
}

/** The write `planned` makes, for the catalog's data asset rules; undefined when it makes none. */
function writeOf(input: PlanInput, planned: Planned, codec: Codec): Write | undefined {
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

/** The first of `pointers` (top-level fields and below) whose field the file sets. */
function firstSet(contract: DesiredContract, pointers: readonly string[]): string {
  const fields = contract as unknown as Record<string, unknown>;
  return pointers.find((pointer) => fields[pointer.split('/')[1]!] !== undefined) ?? WHOLE_CONTRACT;
}

/**
 * What the catalog would refuse (400) in `planned`: what the live contract holds that it refuses
 * on every PATCH (refusedLiveTexts), when the contract is changed; the data asset rules the
 * contract it leaves breaks, and columns its asset lacks, when it is created or changed. All of
 * them are the contract's error while something would be sent (or under --strict), so that one
 * run says everything to mend; warnings while nothing would.
 */
export function refusals(
  input: PlanInput,
  options: PlanOptions,
  planned: Planned,
): { error?: Found; warnings: Found[]; notes: string[] } {
  const { action } = planned;
  const found: { error: Found; warning: Found | undefined }[] = [];
  // Values the connected release refuses that a newer one stores, at their own fields.
  if (action === 'update' || action === 'create')
    for (const refused of options.codec?.refusedByRelease?.(input.file.contract) ?? [])
      found.push({ error: refused, warning: undefined });
  // References the catalog lacks (or refuses) and extension keys it does not define come first,
  // at their items, with everything else the catalog would refuse.
  const referenceError = input.referenceError;
  if (referenceError !== undefined && (action === 'update' || action === 'create'))
    found.push({
      error:
        action === 'create'
          ? {
              ...referenceError,
              message: `${cannotCreate(input.file.contract)}${referenceError.message}`,
            }
          : referenceError,
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
  if (ruled?.refusal !== undefined) {
    const { error, warning, at } = ruled.refusal;
    const pointer = firstSet(input.file.contract, at);
    found.push({
      error: planError('catalog.asset-rule-refused', error, pointer),
      warning: {
        code: 'catalog.asset-rule-refused',
        severity: 'warning',
        message: warning,
        pointer,
      },
    });
  }
  const lacking = input.lackingColumns;
  if (lacking !== undefined && action !== 'error' && action !== 'missing') {
    const { error, warning, pointer } = lackingColumnsTexts(input.file, lacking);
    found.push({
      error: planError('asset.columns-lacking', error, pointer),
      warning: { code: 'asset.columns-lacking', severity: 'warning', message: warning, pointer },
    });
  }
  const notes = ruled?.notes ?? [];
  if (found.length > 0 && (action !== 'noop' || options.strict === true))
    return { error: joinedError(found.map(({ error }) => error)), warnings: [], notes };
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
function passthroughLost(input: PlanInput, codec: Codec | undefined): Found[] | undefined {
  if (input.live.kind !== 'found' || codec === undefined || !stripsOdcsPassthrough(codec.release))
    return undefined;
  if (input.live.contract.odcsElementExtensions === undefined) return undefined;
  return [
    {
      code: 'release.passthrough-lost',
      severity: 'warning',
      message: `${releaseName(codec.release)} drops what this contract keeps of its ODCS document (odcsElementExtensions) on any change that is not an ODCS import, this one too (open-metadata/OpenMetadata#31145, fixed in 2.0.1): upgrade the server before applying, or keep that part of the document elsewhere`,
      pointer: WHOLE_CONTRACT,
    },
  ];
}
