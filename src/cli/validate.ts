// `contracts validate [PATH...]`: the validate operation (no network), its view, the exit code.
// With a catalog profile named, also what that profile's catalog cannot store.
import type { Problem } from '../model/problem.js';
import { validateOperation } from '../operations/validate.js';
import { requestedProfile } from '../profile/profile.js';
import { showValidation, type ValidateFormat } from '../views/validate.js';
import type { Io } from './io.js';

export interface ValidateOptions {
  paths: string[];
  format: ValidateFormat;
  color: boolean;
  /**
   * `--catalog-profile`: the profile whose storage rules to check as well (else CATALOG_PROFILE;
   * `auto` or neither: the file format only, since naming the profile would take the network).
   */
  catalogProfile?: string | undefined;
  /** The problems of the repository's settings file (.contracts.yaml), said with the files'. */
  settingsProblems?: readonly Problem[];
}

export async function runValidate(options: ValidateOptions, io: Io): Promise<number> {
  const checked = await validateOperation({
    paths: options.paths,
    cwd: io.cwd,
    profile: requestedProfile(options.catalogProfile, io.env),
    settingsProblems: options.settingsProblems,
  });
  showValidation(checked, options, io);
  const { problems, fileCount } = checked;
  // Machine output fails on problems only; people are also told when no file was found.
  if (options.format === 'sarif' || options.format === 'json') return problems.length === 0 ? 0 : 1;
  return problems.length === 0 && fileCount > 0 ? 0 : 1;
}
