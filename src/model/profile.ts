// The two kinds of catalog a contract is written for, named apart from what speaks to them
// (profile/) so that the contract files' own code can say which one it reads for.

export type Profile = 'spec' | 'openmetadata';
export type ProfileSetting = Profile | 'auto';
export const PROFILES: readonly Profile[] = ['spec', 'openmetadata'];
export const PROFILE_SETTINGS: readonly ProfileSetting[] = ['auto', 'spec', 'openmetadata'];
