// The codec of each catalog profile (see codec-types.ts).
import type { Codec } from './codec-types.js';
import { openMetadataCodec } from './openmetadata.js';
import type { Profile } from './profile.js';
import { specCodec } from './spec.js';

export { storageProblems, type Codec, type Unstorable } from './codec-types.js';
export { specCodec } from './spec.js';
export { openMetadataCodec } from './openmetadata.js';

export function codecFor(profile: Profile): Codec {
  return profile === 'openmetadata' ? openMetadataCodec : specCodec;
}
