// `contracts validate [PATH...]`: load and check contract files; no network. With a catalog
// profile named, also what that profile's catalog cannot store, as plan would report it.
import type { Problem } from '../contract/problem.js';
import { validateFiles } from '../pipeline/storage-problems.js';
import { requestedProfile } from '../profile/profile.js';
import { colorsFor, type Io } from './io.js';
import { problemsSarif, renderProblems, type ProblemFormat } from '../views/problems.js';

export interface ValidateOptions {
  paths: string[];
  format: ProblemFormat | 'sarif';
  color: boolean;
  /**
   * `--catalog-profile`: the profile whose storage rules to check as well (else CATALOG_PROFILE;
   * `auto` or neither: the file format only, since naming the profile would take the network).
   */
  catalogProfile?: string;
  /** The problems of the repository's settings file (.contracts.yaml), said with the files'. */
  settingsProblems?: readonly Problem[];
}

export async function runValidate(options: ValidateOptions, io: Io): Promise<number> {
  const setting = requestedProfile(options.catalogProfile, io.env);
  const checked =
    options.paths.length === 0
      ? { problems: [], fileCount: 0, validCount: 0 }
      : await validateFiles(options.paths, io.cwd, setting === 'auto' ? undefined : setting);
  const { fileCount, validCount } = checked;
  // The settings file's problems first, as it is read first.
  const problems = [...(options.settingsProblems ?? []), ...checked.problems];
  if (options.format === 'sarif') {
    io.stdout.write(problemsSarif(problems));
    return problems.length === 0 ? 0 : 1;
  }
  if (options.format === 'json') {
    io.stdout.write(
      `${JSON.stringify({ valid: problems.length === 0, fileCount, validCount, problems }, null, 2)}\n`,
    );
    return problems.length === 0 ? 0 : 1;
  }
  const c = colorsFor(io.stdout, io.env, options.color);
  io.stdout.write(renderProblems(problems, options.format));
  if (options.format === 'human') {
    if (options.paths.length === 0) {
      io.stdout.write(
        `${c.red('✗')} ${problems.length} problem${problems.length === 1 ? '' : 's'} in the settings file; the contract files it names are checked once it is fixed.\n`,
      );
    } else if (fileCount === 0) {
      io.stdout.write(
        `${c.yellow('No contract files found')} in ${options.paths.join(', ')} (looked for *.yaml and *.yml).\n`,
      );
    } else if (problems.length === 0) {
      io.stdout.write(
        `${c.green('✓')} ${fileCount} contract file${fileCount === 1 ? ' is' : 's are'} valid.\n`,
      );
    } else {
      const settings = options.settingsProblems?.length ?? 0;
      const badFiles = new Set(checked.problems.map((p) => p.file)).size;
      io.stdout.write(
        `${c.red('✗')} ${problems.length} problem${problems.length === 1 ? '' : 's'}${settings > 0 ? ` (${settings} in the settings file)` : ''} in ${badFiles} of ${fileCount} file${fileCount === 1 ? '' : 's'}.\n`,
      );
    }
  }
  return problems.length === 0 && fileCount > 0 ? 0 : 1;
}
