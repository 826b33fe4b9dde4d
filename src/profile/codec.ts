// The codec of each catalog profile (see codec-types.ts).
import type { Codec } from './codec-types.js';
import { openMetadataCodecFor } from './openmetadata.js';
import type { Profile } from './profile.js';
import type { ReleaseVersion } from './releases.js';
import { specCodec } from './spec.js';

export { storageProblems, type Codec, type Unstorable } from './codec-types.js';
export { specCodec } from './spec.js';
export { openMetadataCodec } from './openmetadata.js';

/** The codec of `profile`; under openmetadata, of the release the catalog reported (if any). */
export function codecFor(profile: Profile, release: ReleaseVersion = null): Codec {
  return profile === 'openmetadata' ? openMetadataCodecFor(release) : specCodec;
}
