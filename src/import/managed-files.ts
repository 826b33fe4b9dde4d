// Which contract file in a folder already manages a contract or an asset, so that import and new
// never write a second file for one (two files for one contract make every plan fail).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadContracts } from '../read/load.js';

/** What a file would manage: a contract's FQN and the asset it is bound to. */
export interface Managed {
  fullyQualifiedName: string;
  entity: { type: string; fullyQualifiedName: string };
}

/**
 * For each of `wanted`, the file below `directory` (relative to `cwd`) that already names its FQN
 * or binds its asset, when one does; files that do not load are passed over.
 */
export async function managingFiles(
  directory: string,
  cwd: string,
  wanted: readonly Managed[],
): Promise<Map<Managed, string>> {
  const found = new Map<Managed, string>();
  if (wanted.length === 0 || !existsSync(directory)) return found;
  const loaded = await loadContracts([path.relative(cwd, directory) || '.'], cwd);
  for (const item of wanted) {
    const file = loaded.files.find(
      ({ identity }) =>
        identity.fullyQualifiedName === item.fullyQualifiedName ||
        (identity.entity.type === item.entity.type &&
          identity.entity.fullyQualifiedName === item.entity.fullyQualifiedName),
    );
    if (file !== undefined) found.set(item, file.file);
  }
  return found;
}
