// The library entry: the pure building blocks other tools may use.
export { parseContract, positionOf, type ContractFile, type Position } from './contract/parse.js';
export { loadContracts, findContractFiles } from './contract/load.js';
export type { Problem } from './contract/problem.js';
export type { DesiredContract } from './contract/model.js';
export { VERSION } from './version.js';
