// The codec of each catalog profile (see codec-types.ts) and, for OpenMetadata, of each release:
// the statuses it stores and whether it is sent If-Match (releases.ts).
import type { Codec } from './codec-types.js';
import { openMetadataCodec, STATUSES } from './openmetadata.js';
import type { Profile } from '../model/profile.js';
import {
  dropsChangesUnderIfMatch,
  releaseName,
  storesArchived,
  type ReleaseVersion,
} from './releases.js';
import { specCodec } from './spec.js';

export { storageProblems, type Codec, type Unstorable } from './codec-types.js';
export { specCodec } from './spec.js';
export { openMetadataCodec } from './openmetadata.js';

/** The codec of `profile`; under openmetadata, of the release the catalog reported (if any). */
export function codecFor(profile: Profile, release: ReleaseVersion = null): Codec {
  return profile === 'openmetadata' ? openMetadataCodecFor(release) : specCodec;
}

const releaseCodecs = new Map<ReleaseVersion, Codec>();

/** The codec of OpenMetadata `release`: its statuses, and whether it is sent If-Match. */
function openMetadataCodecFor(release: ReleaseVersion): Codec {
  let codec = releaseCodecs.get(release);
  if (codec === undefined) releaseCodecs.set(release, (codec = releaseCodec(release)));
  return codec;
}

function releaseCodec(release: ReleaseVersion): Codec {
  const statuses = storesArchived(release)
    ? STATUSES
    : STATUSES.filter((status) => status !== 'Archived');
  return {
    ...openMetadataCodec,
    release,
    sendsIfMatch: !dropsChangesUnderIfMatch(release),
    statuses,
    refusedByRelease(contract) {
      const status = contract.entityStatus;
      if (typeof status !== 'string' || !STATUSES.includes(status) || statuses.includes(status))
        return [];
      return [
        {
          code: 'release.status-unsupported',
          severity: 'error',
          pointer: '/entityStatus',
          message: `entityStatus ${status} is not a status ${releaseName(release)} stores (it came in OpenMetadata 1.13.0); use one of ${statuses.join(', ')}, or upgrade the server`,
        },
      ];
    },
  };
}
