// The ajv instance the ODCS schema is compiled with (odcs-ajv.mjs).
import type { CodeOptions } from 'ajv';
import type { Ajv2019 } from 'ajv/dist/2019.js';

export declare function createOdcsAjv(code?: CodeOptions): Ajv2019;
