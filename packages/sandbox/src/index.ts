// The sandbox's entry: what the tool's CLI, its library entry and its tests use. The demo catalog
// is an entry of its own (`@contracts-gitops/sandbox/demo-catalog`), loaded only when asked for.
export { startSandbox, type Sandbox, type SandboxOptions, type RequestRecord } from './server.js';
export { DEFAULT_SANDBOX_SECRET, mintToken } from './auth.js';
export { parseFaultSpec, seededRandom, type FaultRule, type FaultSpec } from './faults.js';
export { checkSeed, SeedError, type Seed } from './seed.js';
export { idFor } from './directory.js';
export { rulesFor, type DataAssetRule } from './asset-rules.js';
export { ruleHolds } from './rule-engine.js';
export { RELEASE_BEHAVIOURS, ReleaseVariantError, type ReleaseVariants } from './release.js';
