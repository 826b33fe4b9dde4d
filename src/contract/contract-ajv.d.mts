// The ajv instance the tool's own schemas are compiled with (contract-ajv.mjs).
import type { Ajv, CodeOptions } from 'ajv';

export declare function createContractAjv(code?: CodeOptions): Ajv;
