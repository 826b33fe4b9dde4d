// Whether a contract about to be deleted is still named by a file anywhere in the checkout, not
// only under the folders planned: a file moved (or restored elsewhere) since the plan keeps its
// contract, whatever folders a plan, saved or not, says it looked at.
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { simpleGit } from 'simple-git';
import { isContractFilePath } from '../read/load.js';
import { MAX_FILE_BYTES } from '../contract/parse.js';
import { contractNamedIn } from './proof.js';

/** The part of a contract's name every file naming it holds as text (an ODCS file: its `name`). */
function tell(fullyQualifiedName: string): string {
  const last = fullyQualifiedName.slice(fullyQualifiedName.lastIndexOf('.') + 1);
  return last.startsWith('dataContract_') ? last.slice('dataContract_'.length) : last;
}

/**
 * Which of `names` a contract file of the checkout at `top` names (a file git tracks, or one it
 * does not ignore), each with that file (a repository path). Files are read only when their text
 * may name one: it holds the name's last part, or an escape that could spell it. `skip`: files
 * (absolute paths) known to name none of `names` (the run read them, and `names` are of no file
 * it read), not read again; a file reached by another path is read, which is only slower.
 */
export async function contractsNamedInCheckout(
  top: string,
  names: ReadonlySet<string>,
  skip: ReadonlySet<string> = new Set(),
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (names.size === 0) return found;
  const listed = await simpleGit({ baseDir: top }).raw([
    'ls-files',
    '-z',
    '--cached',
    '--others',
    '--exclude-standard',
  ]);
  const tells = [...names].map(tell);
  const files = [...new Set(listed.split('\0'))].filter(
    (file) => file !== '' && isContractFilePath(file),
  );
  for (const file of files.sort()) {
    const absolute = path.join(top, ...file.split('/'));
    if (skip.has(absolute)) continue;
    let text: string;
    try {
      // A link is followed only inside the checkout.
      const real = await realpath(absolute);
      if (path.relative(top, real).startsWith('..')) continue;
      if ((await stat(real)).size > MAX_FILE_BYTES) continue;
      text = await readFile(real, 'utf8');
    } catch {
      continue;
    }
    if (!text.includes('\\') && !tells.some((part) => text.includes(part))) continue;
    const named = contractNamedIn(text, file);
    if (named !== undefined && names.has(named) && !found.has(named)) found.set(named, file);
  }
  return found;
}
