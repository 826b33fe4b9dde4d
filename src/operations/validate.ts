// The validate operation, shared by `contracts validate` and the Action's validate: load and check
// the contract files, with no network; with a catalog profile named, also what that profile's
// catalog cannot store. The settings file's problems come first, as it is read first.
import type { Problem } from '../model/problem.js';
import { validateFiles } from '../pipeline/storage-problems.js';
import type { ProfileSetting } from '../model/profile.js';

export interface ValidateInput {
  paths: readonly string[];
  cwd: string;
  /** The profile whose storage rules to check as well; `auto` or none: the file format only. */
  profile?: ProfileSetting | undefined;
  /** The problems of the repository's settings file (.contracts.yaml). */
  settingsProblems?: readonly Problem[] | undefined;
}

export interface Validation {
  /** The settings file's problems, then the files'. */
  problems: Problem[];
  /** How many of the problems are the settings file's. */
  settingsProblemCount: number;
  fileCount: number;
  validCount: number;
  /** Files with a problem. */
  invalidFileCount: number;
}

export async function validateOperation(input: ValidateInput): Promise<Validation> {
  const { profile } = input;
  // No paths (a broken settings file named them): only the settings file's problems.
  const checked =
    input.paths.length === 0
      ? { problems: [], fileCount: 0, validCount: 0 }
      : await validateFiles(input.paths, input.cwd, profile === 'auto' ? undefined : profile);
  const settingsProblems = input.settingsProblems ?? [];
  return {
    problems: [...settingsProblems, ...checked.problems],
    settingsProblemCount: settingsProblems.length,
    fileCount: checked.fileCount,
    validCount: checked.validCount,
    invalidFileCount: new Set(checked.problems.map((problem) => problem.file)).size,
  };
}
