// An ODCS file as a contract file: validated against the ODCS schema at its positions, read as a
// contract (from-odcs.ts), and told apart from our own files where it differs: what names no
// catalog asset, the status each profile stores, and what stays only in git.
import type { DesiredContract } from '../model/contract.js';
import type { ContractFile } from './positions.js';
import type { Problem, Result } from '../model/problem.js';
import { schemaProblems, type LocateProblem } from './schema.js';
import { holding, odcsReadingOf, pointerSegments, positionOf } from './positions.js';
import type { Profile } from '../model/profile.js';
import { fromOdcs, type OdcsReading } from './from-odcs.js';
import type { Found } from '../model/finding.js';
import { odcsValidator } from './odcs-schema.js';

/** What names the contract of an ODCS file that names no catalog asset: nothing can be planned. */
export const UNNAMED_IDENTITY = Object.freeze({
  fullyQualifiedName: '',
  entity: Object.freeze({ type: '', fullyQualifiedName: '' }),
});

/** What the catalog could not read in a document the standard refuses: what can be told. */
function mappingProblems(value: Record<string, unknown>): { pointer: string; message: string }[] {
  try {
    return fromOdcs(value).problems;
  } catch {
    // A document the standard refuses may hold any shape: the mapping then says nothing more.
    return [];
  }
}

/**
 * The contract file of a parsed ODCS document (`value`), or its problems, each located with
 * `locate` (the loader's, over the file's syntax tree).
 */
export function odcsContractFile(
  value: Record<string, unknown>,
  file: string,
  text: string,
  locate: LocateProblem,
): Result<ContractFile> {
  const at = (pointer: string, message: string, key = false): Problem =>
    locate(pointerSegments(pointer), key, message);
  const problems = schemaProblems(value, locate, odcsValidator());
  if (problems.length > 0) {
    // What the catalog could not read is said in the same pass, where the standard allows it.
    const taken = new Set(problems.map((p) => `${p.line}:${p.column}`));
    const more = mappingProblems(value)
      .map((p) => at(p.pointer, p.message))
      .filter((p) => !taken.has(`${p.line}:${p.column}`));
    return { ok: false, problems: [...problems, ...more] };
  }
  const reading = fromOdcs(value);
  if (reading.problems.length > 0)
    return { ok: false, problems: reading.problems.map((p) => at(p.pointer, p.message)) };
  if (reading.contract === undefined)
    return {
      ok: true,
      value: {
        file,
        identity: UNNAMED_IDENTITY,
        // Nothing is planned from it: the plan refuses the file, at `unnamed`.
        contract: { ...UNNAMED_IDENTITY, name: '' },
        text,
        format: 'odcs',
        unnamed: at(reading.unnamed!.pointer, reading.unnamed!.message, true),
      },
    };
  return { ok: true, value: odcsFileOf(reading.contract, file, text, reading.unstored.length > 0) };
}

/**
 * The contract file of an ODCS document read by the fast path (js-yaml alone), when it validates
 * and names its catalog asset; undefined otherwise, and the file is then parsed positionally, where
 * its problems are located (odcsContractFile).
 */
export function fastOdcsContractFile(
  value: Record<string, unknown>,
  file: string,
  text: string,
): ContractFile | undefined {
  if (!odcsValidator()(value)) return undefined;
  const reading = fromOdcs(value);
  if (reading.problems.length > 0 || reading.contract === undefined) return undefined;
  return odcsFileOf(reading.contract, file, text, reading.unstored.length > 0);
}

/** `keptOnlyInGit`: the document holds what the catalog's contract has no field for. */
function odcsFileOf(
  contract: DesiredContract,
  file: string,
  text: string,
  keptOnlyInGit: boolean,
): ContractFile {
  return {
    file,
    identity: contract,
    contract,
    text,
    format: 'odcs',
    versioned: true,
    ...(keptOnlyInGit ? { keptOnlyInGit: true } : {}),
  };
}

/**
 * The contract as `profile`'s catalog stores it. An ODCS status `active` is OpenMetadata's
 * `Approved`, as its converter reads it, and the specification's `Active`.
 */
export function contractForProfile(file: ContractFile, profile: Profile): DesiredContract {
  const contract = file.contract;
  if (file.format !== 'odcs' || profile !== 'spec' || contract.entityStatus !== 'Approved')
    return contract;
  return { ...contract, entityStatus: 'Active' };
}

/** `file` with its contract as `profile` stores it (itself when that is the same). */
export function fileForProfile(file: ContractFile, profile: Profile): ContractFile {
  const contract = contractForProfile(file, profile);
  return contract === file.contract ? file : holding(file, contract);
}

/**
 * The warning of keptOnlyInGit for a loaded ODCS file: only for a file that holds something the
 * catalog has no field for (ContractFile.keptOnlyInGit), read again by the positional parser, which
 * says where (one parse: the fast path reads a document as the positional parser does, and
 * withContract takes the file's contract from that parse).
 */
export function keptOnlyInGitOf(file: ContractFile): string | undefined {
  if (file.keptOnlyInGit !== true) return undefined;
  const reading = odcsReadingOf(file);
  if (reading === undefined) return undefined;
  return keptOnlyInGit(file, reading, (pointer) => positionOf(file, pointer, false, true));
}

/**
 * keptOnlyInGitOf as a finding, at the first thing it names: a pointer into the document as
 * written (what it keeps has no place in the contract read from it).
 */
export function keptOnlyInGitFinding(file: ContractFile): Found | undefined {
  const message = keptOnlyInGitOf(file);
  if (message === undefined) return undefined;
  const unstored = odcsReadingOf(file)!.unstored;
  const first = unstored.find((item) => !isQuality(item)) ?? unstored[0]!;
  return {
    code: 'odcs.kept-only-in-git',
    severity: 'warning',
    message,
    pointer: first.pointer,
    inDocument: true,
  };
}

/** How keptOnlyInGit's warning begins. */
const KEPT_ONLY_IN_GIT = 'kept only in git: ';

/** Whether an item kept only in git is a quality rule's (`…/quality`). */
function isQuality(item: { pointer: string }): boolean {
  return /(^|\/)quality$/.test(item.pointer);
}

/**
 * One warning for all an ODCS file holds that the catalog's contract has no field for, each at its
 * line: it stays only in git. Quality rules are told apart: OpenMetadata keeps them (as
 * odcsQualityRules) when it imports ODCS itself; this tool does not write them, and leaves them
 * as they are. Undefined when there is nothing such.
 */
export function keptOnlyInGit(
  file: ContractFile,
  reading: OdcsReading,
  where: (pointer: string) => { line: number; column: number },
): string | undefined {
  if (reading.unstored.length === 0) return undefined;
  const said = (item: { pointer: string; message: string }): string =>
    `${item.message.replace(/ stays only in git.*$/, '')} (line ${where(item.pointer).line})`;
  const quality = reading.unstored.filter(isQuality);
  const other = reading.unstored.filter((item) => !quality.includes(item));
  const parts = [
    ...(other.length === 0
      ? []
      : [`the contract the catalog stores has no field for ${other.map(said).join(', ')}`]),
    ...(quality.length === 0
      ? []
      : [
          `${quality.map(said).join(', ')} ${quality.length === 1 ? 'is' : 'are'} not written (the contract's odcsQualityRules, which OpenMetadata's own ODCS import fills, are left as they are)`,
        ]),
  ];
  return `${KEPT_ONLY_IN_GIT}${parts.join('; ')} — ${file.file} stays their only record`;
}
