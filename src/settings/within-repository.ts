// Where files may be read from: contract paths (from the settings file, the command line, the
// Action's input) and the settings file itself stay in the repository — the nearest folder from
// the working folder up that holds `.git`, else the working folder — and out of git's own folder.
// A path, or a symbolic link on the way to it, that leads outside, or into a `.git`, is refused
// before anything is read: such a file may hold the credential actions/checkout stores in
// .git/config, and a problem of a file quotes where it is, not what it holds.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { findSettingsFile } from './name.js';

/** The folder files are read from, as given and as its real path. */
export interface Bounds {
  /** The repository's root (or the working folder outside a repository), absolute. */
  root: string;
  /** Its real path: where every file read must really be. */
  real: string;
  /** Whether `root` is a repository's (it holds `.git`). */
  repository: boolean;
}

/**
 * The bounds of the files read for a command run in `cwd`: the repository's root; outside a
 * repository, the folder of the settings file that applies (its paths are relative to it), else
 * the working folder.
 */
export function boundsOf(cwd: string): Bounds {
  const start = path.resolve(cwd);
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git')))
      return { root: dir, real: realOf(dir), repository: true };
    if (path.dirname(dir) === dir) break;
  }
  const settings = findSettingsFile(start);
  const root = settings === undefined ? start : path.dirname(settings);
  return { root, real: realOf(root), repository: false };
}

function realOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** `real` as a path inside `bounds` (forward slashes), or undefined when it is outside. */
function inside(real: string, bounds: Bounds): string | undefined {
  const relative = path.relative(bounds.real, real);
  if (relative === '') return '';
  if (relative.startsWith(`..${path.sep}`) || relative === '..' || path.isAbsolute(relative))
    return undefined;
  return relative.split(path.sep).join('/');
}

/**
 * Why the file or folder at `absolute` (which exists) may not be read, as a sentence for a
 * problem at it; undefined when it may. `link` says that it was reached through a symbolic link.
 */
export function refusalOf(absolute: string, bounds: Bounds, link = false): string | undefined {
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    return undefined;
  }
  const what = link ? 'a symbolic link that leads' : 'the path leads';
  const relative = inside(real, bounds);
  if (relative === undefined)
    return `${what} outside the ${bounds.repository ? 'repository' : 'working folder'} (${bounds.root}), so it is not read: contract and settings files are read only from inside it`;
  if (relative.split('/').some((part) => part.toLowerCase() === '.git'))
    return `${what} into .git (${relative}), git's own folder, so it is not read: it is no contract file, and may hold credentials`;
  return undefined;
}
