// Catalog profiles: the spec's interface, or a real OpenMetadata 1.10+ server. `auto` asks the
// catalog for its version: 1.10 or later is OpenMetadata, a 404 the spec's interface.
import { ConfigError } from '../errors.js';

export type Profile = 'spec' | 'openmetadata';
export type ProfileSetting = Profile | 'auto';
export const PROFILES: readonly Profile[] = ['spec', 'openmetadata'];
export const PROFILE_SETTINGS: readonly ProfileSetting[] = ['auto', 'spec', 'openmetadata'];

/** The setting from a flag or CATALOG_PROFILE (`auto` when neither is given). */
export function profileSetting(raw: string | undefined, from: string): ProfileSetting {
  if (raw === undefined || raw.trim() === '') return 'auto';
  const value = raw.trim().toLowerCase();
  if ((PROFILE_SETTINGS as readonly string[]).includes(value)) return value as ProfileSetting;
  throw new ConfigError(`${from} must be one of auto, spec or openmetadata, got '${raw}'`);
}

/** The profile asked for: the `--catalog-profile` flag when given, else CATALOG_PROFILE, else auto. */
export function requestedProfile(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ProfileSetting {
  return flag !== undefined
    ? profileSetting(flag, '--catalog-profile')
    : profileSetting(env.CATALOG_PROFILE, 'CATALOG_PROFILE');
}

/** The profile of a server that reports `version` (OpenMetadata numbering). */
export function profileForVersion(version: string): Profile {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (match === null) return 'spec';
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 1 || (major === 1 && minor >= 10) ? 'openmetadata' : 'spec';
}

/** The reads profile detection needs: CatalogClient's. */
export interface VersionReader {
  /** The catalog's version, or null when it has no version endpoint (404). */
  systemVersion?(): Promise<string | null>;
}

export async function resolveProfile(
  setting: ProfileSetting,
  reader: VersionReader,
): Promise<Profile> {
  if (setting !== 'auto') return setting;
  const version = (await reader.systemVersion?.()) ?? null;
  return version === null ? 'spec' : profileForVersion(version);
}
