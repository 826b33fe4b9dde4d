// The ajv instance the plan file's schema is compiled with (plan-ajv.mjs).
import type { Ajv, CodeOptions } from 'ajv';

export declare function createPlanAjv(code?: CodeOptions): Ajv;
