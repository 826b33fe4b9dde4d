// The library entry: the building blocks other tools may use.
export { parseContract, positionOf, type ContractFile, type Position } from './contract/parse.js';
export { loadContracts, findContractFiles } from './read/load.js';
export type { Problem } from './model/problem.js';
export type { DesiredContract } from './model/contract.js';
export { diffContract, verifyPatch, breakingChanges, type Operation } from './diff/index.js';
export { createPlan, hashContract, type PlanInput } from './plan/create-plan.js';
export type { Plan, PlannedChange } from './plan/types.js';
export {
  FINDING_CODES,
  type Finding,
  type FindingCode,
  type Found,
  type Severity,
} from './model/finding.js';
export { CatalogClient, type CatalogClientOptions, type LiveContract } from './catalog/client.js';
export { applyPlan, type ApplyReport } from './apply/apply-plan.js';
export {
  startSandbox,
  mintToken,
  type Sandbox,
  type SandboxOptions,
} from '@contracts-gitops/sandbox';
export { demoSeed } from '@contracts-gitops/sandbox/demo-catalog';
export * from './model/errors.js';
export { VERSION } from './support/version.js';
