// The settings file's name and where it is found, apart from what reads it, so that start-up
// loads nothing more: a command run where there is no settings file never loads its reader (the
// YAML parser, the schema's validator, JSON Logic).
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export const SETTINGS_FILE = '.contracts.yaml';

/**
 * Where the settings file is: the nearest folder from `cwd` up to the repository's root (the
 * first that holds `.git`) that holds one; undefined when none does.
 */
export function findSettingsFile(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, SETTINGS_FILE);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return undefined;
  }
}
