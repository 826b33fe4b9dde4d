// The diff engine's public face: pure functions from (live, desired) to a verified patch.
export { diffContract } from './diff-contract.js';
export { verifyPatch, applyToCopy } from './verify.js';
export { guardPatch } from './guard.js';
export { breakingChanges, durationSeconds } from './breaking.js';
export { changesOf, type ChangeOperation, type Operation } from '../model/operation.js';
