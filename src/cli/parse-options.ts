// Parsers for flag values, kept apart so the CLI's start-up loads nothing heavy.
import { InvalidArgumentError } from 'commander';

export function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new InvalidArgumentError('must be a whole number from 1 to 256');
  return n;
}

/** The options that were given, so absent ones stay absent (exactOptionalPropertyTypes). */
export function pick<T extends object, K extends keyof T>(
  options: T,
  keys: readonly K[],
): { [P in K]?: Exclude<T[P], undefined> } {
  const out: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const key of keys)
    if (options[key] !== undefined) out[key] = options[key] as Exclude<T[K], undefined>;
  return out;
}
