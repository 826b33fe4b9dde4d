// The doctor operation: the configured catalog checked without writing (reach, token, release and
// profile, permissions, custom properties, optional routes), and with `fix` the custom properties
// the tool needs defined. Returns the report; prints nothing.
import { InspectingClient } from '../catalog/inspecting-client.js';
import { diagnose } from '../doctor/diagnose.js';
import type { DoctorReport } from '../doctor/checks.js';
import { loadContracts } from '../read/load.js';
import { connect, type ConnectionFlags } from './connection.js';

export { doctorPasses, type Check, type DoctorReport } from '../doctor/checks.js';

export interface DoctorOptions extends ConnectionFlags {
  /** The contract files: whether any declares a version decides whether contractVersion is needed. */
  paths: string[];
  fix: boolean;
}

/** Whether a file under `paths` declares a version (a file that cannot be read declares none). */
async function declaresVersion(paths: readonly string[], cwd: string): Promise<boolean> {
  try {
    const loaded = await loadContracts(paths, cwd);
    return loaded.files.some((file) => file.versioned === true || file.format === 'odcs');
  } catch {
    return false;
  }
}

export async function doctorOperation(
  options: DoctorOptions,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  now: number = Date.now(),
): Promise<DoctorReport> {
  const { client, catalogUrl, profile } = connect(
    options,
    env,
    4,
    (settings) => new InspectingClient(settings),
  );
  try {
    return await diagnose(client, {
      catalogUrl,
      setting: profile,
      // connect() refused a missing token: it is there.
      token: env.CATALOG_TOKEN!,
      versioned: await declaresVersion(options.paths, cwd),
      fix: options.fix,
      now,
    });
  } finally {
    await client.close();
  }
}
