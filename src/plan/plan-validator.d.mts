// The plan file's schema compiled at build time (scripts/generate-validator.mjs).
import type { ValidateFunction } from 'ajv';

export declare const validate: ValidateFunction;
export default validate;
