// The contract's declared version written to the catalog too, where the catalog defines a custom
// property for it (a data contract's `contractVersion`, defined through the types API, as
// `contracts doctor --fix` does): the file's version joins its contract's `extension`, beside the
// custom properties the file or the live contract already holds, so that the catalog shows the
// version git declares.
import { holding, type ContractFile } from '../contract/positions.js';
import type { LiveResult } from '../plan/create-plan.js';
import type { CustomProperties } from '../plan/custom-properties.js';
import { declaredVersion } from '../gate/version-gate.js';

/** The custom property of data contracts that holds the declared version. */
export const VERSION_PROPERTY = 'contractVersion';

/**
 * `file` with its declared version in `extension.contractVersion` when the catalog defines that
 * custom property; `file` itself otherwise (or when the file declares no version).
 */
export async function withVersionProperty(
  file: ContractFile,
  read: LiveResult,
  properties: () => Promise<CustomProperties>,
): Promise<ContractFile> {
  // Asked of the catalog only for a file that declares a version.
  if (file.versioned !== true && file.format !== 'odcs') return file;
  const defined = await properties();
  if (!('properties' in defined) || !defined.properties.some((p) => p.name === VERSION_PROPERTY))
    return file;
  const declared = declaredVersion(file.text, file.format === 'odcs');
  if (declared === undefined) return file;
  const own = file.contract.extension;
  // What the file leaves alone stays as the catalog has it: the live contract's custom properties.
  const kept =
    own !== undefined && own !== null
      ? own
      : read.kind === 'found'
        ? (read.contract.extension ?? {})
        : {};
  return holding(file, {
    ...file.contract,
    extension: { ...(kept as Record<string, unknown>), [VERSION_PROPERTY]: declared.version },
  });
}
