// Validates a parsed contract against schemas/data-contract.schema.json with ajv and turns
// ajv's errors into sentences a person can act on.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { validate as validateContract } from './contract-validator.mjs';
import { pointerSegments, type Segment } from './positions.js';
import { dottedPath, notListed, type Problem } from '../model/problem.js';

type LocateProblem = (
  segments: readonly Segment[],
  pointAtKey: boolean,
  message: string,
) => Problem;

interface SchemaLike {
  description?: string;
  'x-hint'?: string;
  pattern?: string;
  properties?: Record<string, SchemaLike>;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
}

/** The schema's validator, compiled at build time with createContractAjv's options. */
function validator(): ValidateFunction {
  return validateContract;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function typeWords(type: unknown): string {
  const names = (Array.isArray(type) ? type : [type]).map((t) => {
    switch (t) {
      case 'object':
        return 'a mapping';
      case 'array':
        return 'a list';
      case 'integer':
        return 'a whole number';
      case 'number':
        return 'a number';
      case 'string':
        return 'a string';
      case 'boolean':
        return 'true or false';
      case 'null':
        return 'null (to remove it)';
      default:
        return String(t);
    }
  });
  return names.length > 1
    ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}`
    : names[0]!;
}

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

/** The allowed name closest to `name`, when it is close enough to be a typo. */
export function closest(name: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    const distance = levenshtein(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

/** A semantic version like `value` (`0.4` → `0.4.0`), for a value written as MAJOR.MINOR. */
function semanticGuess(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return match === null ? undefined : `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
}

/**
 * What a refused value was likely meant to be, as `; did you mean X?`: an allowed value told by
 * its case or a typo (`active` → `Active`), the uppercase token a pattern wants (`bigint` →
 * `BIGINT`), a semantic version for a MAJOR.MINOR one (`0.4` → `"0.4.0"`). Empty when none.
 */
function didYouMean(error: ErrorObject, parent: SchemaLike): string {
  const value = error.data;
  const say = (guess: string): string => `; did you mean ${JSON.stringify(guess)}?`;
  if (error.keyword === 'enum' && typeof value === 'string') {
    const allowed = (parent.enum ?? []).filter((v): v is string => typeof v === 'string');
    const guess =
      allowed.find((v) => v.toLowerCase() === value.toLowerCase()) ?? closest(value, allowed);
    return guess === undefined ? '' : say(guess);
  }
  if (error.keyword !== 'pattern' && error.keyword !== 'type') return '';
  if (parent.pattern === undefined) return '';
  const pattern = new RegExp(parent.pattern, 'u');
  const version = semanticGuess(value);
  if (version !== undefined && pattern.test(version)) return say(version);
  if (typeof value === 'string' && pattern.test(value.toUpperCase()))
    return say(value.toUpperCase());
  return '';
}

function sentence(error: ErrorObject, segments: Segment[], locate: LocateProblem): Problem {
  const path = dottedPath(segments);
  const subject = path === '' ? 'the contract' : path;
  const parent = (error.parentSchema ?? {}) as SchemaLike;
  const got = describe(error.data);
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const help = parent.properties?.[missing]?.description;
      const full = dottedPath([...segments, missing]);
      return locate(
        segments,
        true,
        `${full} is required but missing${help === undefined ? '' : ` (${help.replace(/\.$/, '')})`}`,
      );
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys(parent.properties ?? {});
      const guess = closest(extra, allowed);
      const where = path === '' ? 'at the top level' : `in ${path}`;
      const hint =
        guess !== undefined
          ? `; did you mean '${guess}'?`
          : `; allowed keys are ${allowed.join(', ')}`;
      return locate([...segments, extra], true, `unknown key '${extra}' ${where}${hint}`);
    }
    case 'type':
      return locate(
        segments,
        false,
        `${subject} must be ${typeWords((error.params as { type: unknown }).type)}, got ${got}${didYouMean(error, parent)}`,
      );
    case 'enum':
    case 'const':
    case 'pattern': {
      const hint =
        parent['x-hint'] ??
        (error.keyword === 'enum'
          ? `one of ${(parent.enum ?? [])
              .filter((v) => v !== null)
              .map((v) => JSON.stringify(v))
              .join(', ')}`
          : (error.message ?? 'valid'));
      return locate(
        segments,
        false,
        `${subject} must be ${hint}, got ${got}${didYouMean(error, parent)}`,
      );
    }
    case 'minimum':
    case 'maximum': {
      const limit = (error.params as { limit: number }).limit;
      return locate(
        segments,
        false,
        `${subject} must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${limit}, got ${got}`,
      );
    }
    case 'minLength':
      return locate(segments, false, `${subject} must not be empty`);
    case 'maxLength': {
      const limit = (error.params as { limit: number }).limit;
      return locate(segments, false, `${subject} must be at most ${limit} characters long`);
    }
    default:
      return locate(segments, false, `${subject} ${error.message ?? 'is not valid'}`);
  }
}

export type { LocateProblem };

/** Whether a parsed document matches the schema (no problems to locate). */
export function matchesSchema(value: unknown): boolean {
  return validator()(value);
}

/** Every schema problem of a parsed document, located in the source. */
/** Schema problems described per file, at most; the rest are counted in one more problem. */
export const MAX_SCHEMA_PROBLEMS = 100;

/**
 * Every problem `validate` (this tool's schema by default; ODCS's for an ODCS document) finds in
 * a parsed document, located in the source.
 */
export function schemaProblems(
  value: unknown,
  locate: LocateProblem,
  validate: ValidateFunction = validator(),
): Problem[] {
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const problems = errors
    .slice(0, MAX_SCHEMA_PROBLEMS)
    .map((error) => sentence(error, pointerSegments(error.instancePath), locate));
  if (errors.length > MAX_SCHEMA_PROBLEMS) {
    // Said where the first problem not described is.
    const next = errors[MAX_SCHEMA_PROBLEMS]!;
    problems.push(
      notListed(
        errors.length - MAX_SCHEMA_PROBLEMS,
        sentence(next, pointerSegments(next.instancePath), locate),
      ),
    );
  }
  return problems;
}
