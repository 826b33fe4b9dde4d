// What a catalog profile cannot store in loaded contract files, each at its position: the files
// the loader flagged for that profile (LoadOptions.unstorableIn) are read again to say what and
// where. Shared by plan (the connected catalog's profile) and validate (a profile named), whose
// whole check is here too, for the CLI and the Action.
import { loadContracts, type LoadedContracts } from '../read/load.js';
import { withContract } from '../contract/parse.js';
import type { Problem } from '../model/problem.js';
import { codecFor, storageProblems, type Codec } from '../profile/codec.js';
import type { Profile } from '../model/profile.js';
import { contractForProfile } from '../contract/odcs-file.js';

/**
 * What `profile`'s catalog cannot store in the loaded files, at their places; with the connected
 * release's `codec`, also what that release refuses in those files, so that one pass says both.
 */
export function storageProblemsIn(
  loaded: LoadedContracts,
  profile: Profile,
  codec: Codec = codecFor(profile),
): Problem[] {
  const unstorable = loaded.unstorable.get(profile) ?? new Set();
  return loaded.files
    .filter((file) => unstorable.has(file.file))
    .flatMap((file) => {
      // An ODCS file that names no catalog asset (no catalog can store it): that is its problem.
      if (file.unnamed !== undefined) return [file.unnamed];
      const held = withContract(file);
      const contract = contractForProfile(held, profile);
      const refused = codec.refusedByRelease?.(contract) ?? [];
      return storageProblems(held, [
        ...codec.unstorable(contract),
        ...refused.map(({ pointer, message }) => ({ pointer, message })),
      ]);
    });
}

/**
 * `contracts validate` and the Action's validate: loads the files at `paths` and checks them, and
 * with `profile` also what that profile's catalog cannot store; no network.
 */
export async function validateFiles(
  paths: readonly string[],
  cwd: string,
  profile?: Profile,
): Promise<{ problems: Problem[]; fileCount: number; validCount: number }> {
  const loaded = await loadContracts(
    paths,
    cwd,
    profile === undefined ? {} : { unstorableIn: [profile] },
  );
  const stored = profile === undefined ? [] : storageProblemsIn(loaded, profile);
  return {
    problems: [...loaded.problems, ...stored],
    fileCount: loaded.fileCount,
    validCount: loaded.files.length - new Set(stored.map((problem) => problem.file)).size,
  };
}
