// The catalog's own verdict on a create before anything is sent: OpenMetadata's dry run of the
// create body (`POST /v1/dataContracts/validate`), whose refusal becomes the contract's error in the
// server's words. A release that does not serve the route is a note, never taken for a refusal.
import type { CreateValidation } from '../catalog/types.js';
import type { ContractFile } from '../contract/parse.js';
import { pointerTo, WHOLE_CONTRACT } from '../model/finding.js';
import { AuthError, errorMessage } from '../model/errors.js';
import type { Codec } from '../profile/codec-types.js';
import { releaseName } from '../profile/releases.js';
import type { CatalogReader } from '../catalog/catalog-reader.js';
import { placeFinding } from './place-findings.js';
import { joinRefusals } from './refusal-text.js';
import type { PlannedChange } from './types.js';

/** The sentences of a dry run's refusal, columns first (each at its column in the file). */
function refusalTexts(validation: CreateValidation, assetType: string): string[] {
  const schema = validation.schemaValidation ?? {};
  const texts: string[] = [];
  const failed = schema.failedFields ?? [];
  if (failed.length > 0)
    texts.push(
      `column${failed.length === 1 ? '' : 's'} ${failed.join(', ')} ${failed.length === 1 ? 'is' : 'are'} not among the ${assetType}'s columns, says the catalog's dry run of this create`,
    );
  const duplicated = schema.duplicateFields ?? [];
  if (duplicated.length > 0)
    texts.push(
      `the catalog's dry run of this create finds columns named more than once: ${duplicated.join(', ')}`,
    );
  const mismatched = schema.typeMismatchFields ?? [];
  if (mismatched.length > 0)
    texts.push(
      `the catalog's dry run of this create finds data types that differ from the ${assetType}'s: ${mismatched.join('; ')}`,
    );
  const others = [...(validation.entityErrors ?? []), ...(validation.constraintErrors ?? [])];
  if (others.length > 0)
    texts.push(`the catalog's dry run of this create refuses it: ${others.join('; ')}`);
  if (texts.length === 0)
    texts.push("the catalog's dry run of this create refuses it, saying no why");
  return texts;
}

/**
 * `change` after the catalog's dry run of its create (OpenMetadata only): an error in the server's
 * words when it refuses the body, with nothing sent; a note when the release does not serve the
 * route or could not be asked. Other changes, and catalogs of the spec profile, pass unchanged.
 */
export async function withCreateDryRun(
  change: PlannedChange,
  reader: CatalogReader,
  codec: Codec,
  /** The change's file, where its error is placed. */
  file: ContractFile,
): Promise<PlannedChange> {
  if (
    change.action !== 'create' ||
    change.create == null ||
    codec.profile !== 'openmetadata' ||
    reader.validateCreate === undefined
  )
    return change;
  let validation: CreateValidation | null;
  try {
    validation = await reader.validateCreate(change.create.body);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    return {
      ...change,
      notes: [
        ...change.notes,
        `the catalog's dry run of this create could not be asked (${errorMessage(error, reader.redact.bind(reader))}); the create is checked by this tool alone`,
      ],
    };
  }
  if (validation === null)
    return {
      ...change,
      notes: [
        ...change.notes,
        `${releaseName(codec.release)} serves no dry run of a create (POST /v1/dataContracts/validate); the create is checked by this tool alone`,
      ],
    };
  if (validation.valid !== false) return change;
  const { create, ...rest } = change;
  const error = joinRefusals(refusalTexts(validation, create.assetType));
  // At the first column the catalog names, else the contract as a whole.
  const failed = validation.schemaValidation?.failedFields?.[0];
  const schema = file.contract.schema as { name?: unknown }[] | undefined;
  const column = schema?.findIndex((item) => item.name === failed) ?? -1;
  const pointer = column === -1 ? WHOLE_CONTRACT : pointerTo('schema', column, 'name');
  return {
    ...rest,
    action: 'error',
    patch: [],
    breaking: [],
    diff: [],
    error,
    // A create has no breaking change: its findings are its warnings, after the error.
    findings: [
      placeFinding(file, {
        code: 'plan.create-refused',
        severity: 'error',
        message: error,
        pointer,
      }),
      ...(change.findings ?? []).filter((finding) => finding.severity !== 'error'),
    ],
  };
}
