// Catalog profiles: the spec's interface, or a real OpenMetadata 1.10+ server. `auto` asks the
// catalog for its version: 1.10 or later is OpenMetadata, a 404 the spec's interface, an older
// OpenMetadata release neither (refused).
import { ConfigError } from '../model/errors.js';
import type { ReleaseVersion } from './releases.js';

import { PROFILE_SETTINGS, type Profile, type ProfileSetting } from '../model/profile.js';

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

/** The first OpenMetadata release the openmetadata profile speaks: before it, contracts had another shape. */
const FIRST_RELEASE = { major: 1, minor: 10 } as const;
/** That release as people write it. */
export const FIRST_RELEASE_TEXT = `${FIRST_RELEASE.major}.${FIRST_RELEASE.minor}`;

/** Whether OpenMetadata `major`.`minor` is FIRST_RELEASE or later. */
export function fromFirstRelease(major: number, minor: number): boolean {
  return (
    major > FIRST_RELEASE.major || (major === FIRST_RELEASE.major && minor >= FIRST_RELEASE.minor)
  );
}

/**
 * The profile of a server that reports `version` (OpenMetadata numbering): 1.10 or later is
 * OpenMetadata; a version that is not such a number, the spec. A release before 1.10 fits neither
 * profile (its contracts store `status`, not `entityStatus`, and have no SLA, terms of use or
 * security), so it is refused with the two ways out, before any contract is read.
 */
export function profileForVersion(version: string): Profile {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (match === null) return 'spec';
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (fromFirstRelease(major, minor)) return 'openmetadata';
  throw new ConfigError(
    `the catalog reports OpenMetadata ${version.trim()}, older than ${FIRST_RELEASE_TEXT}: its data contracts store a status field instead of entityStatus and have no sla, termsOfUse or security, so neither catalog profile fits it and every change would be refused. Upgrade the server to OpenMetadata ${FIRST_RELEASE_TEXT} or later, or, if this catalog serves the catalog specification's interface, set --catalog-profile spec (CATALOG_PROFILE=spec). No contract was read or changed.`,
  );
}

/** The reads profile detection needs: CatalogClient's. */
export interface VersionReader {
  /** The catalog's version, or null when it has no version endpoint (404). */
  systemVersion?(): Promise<string | null>;
}

/** The catalog connected to: the profile it speaks and, for OpenMetadata, the release it reports. */
export interface ConnectedCatalog {
  profile: Profile;
  release: ReleaseVersion;
}

/**
 * The profile to speak: the one set, or under `auto` the one the catalog's version says (a
 * ConfigError for an OpenMetadata release before 1.10); with openmetadata, the release the
 * catalog reports (null when it has no version route, or reports none, such as "unknown").
 */
export async function resolveCatalog(
  setting: ProfileSetting,
  reader: VersionReader,
): Promise<ConnectedCatalog> {
  if (setting === 'spec') return { profile: 'spec', release: null };
  const version = (await reader.systemVersion?.()) ?? null;
  const profile =
    setting === 'auto' ? (version === null ? 'spec' : profileForVersion(version)) : setting;
  const release =
    profile === 'openmetadata' && version !== null && /^v?\d+\.\d+/.test(version.trim())
      ? version.trim()
      : null;
  return { profile, release };
}

/** The profile to speak (resolveCatalog, without the release). */
export async function resolveProfile(
  setting: ProfileSetting,
  reader: VersionReader,
): Promise<Profile> {
  return (await resolveCatalog(setting, reader)).profile;
}
