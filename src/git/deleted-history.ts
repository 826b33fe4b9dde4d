// Which files under some folders git knows were deleted, at any time in HEAD's history or from the
// working tree, each with the text it last had: what a plain plan looks for the contracts whose
// files are gone from (prune/orphans.ts), without reading the catalog's whole list.
import { spawn } from 'node:child_process';
import { simpleGit } from 'simple-git';
import { MAX_FILE_BYTES } from '../contract/parse.js';

/** A file deleted (a repository path) and its last text. */
export interface DeletedText {
  file: string;
  text: string;
}

/** The blobs `objects` name (`<rev>:<path>`), read by one `git cat-file --batch`; absent ones left out. */
function readBlobs(top: string, objects: readonly string[]): Promise<Map<string, string>> {
  return new Promise((resolve) => {
    const texts = new Map<string, string>();
    if (objects.length === 0) {
      resolve(texts);
      return;
    }
    const child = spawn('git', ['cat-file', '--batch'], {
      cwd: top,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => resolve(texts));
    child.on('close', () => {
      const output = Buffer.concat(chunks);
      let at = 0;
      for (const object of objects) {
        const end = output.indexOf(0x0a, at);
        if (end === -1) break;
        const header = output.subarray(at, end).toString('utf8').split(' ');
        at = end + 1;
        if (header[1] !== 'blob') continue;
        const size = Number(header[2]);
        if (size <= MAX_FILE_BYTES)
          texts.set(object, output.subarray(at, at + size).toString('utf8'));
        at += size + 1;
      }
      resolve(texts);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${objects.join('\n')}\n`);
  });
}

/**
 * The files under `pathspecs` (repository paths, `.` for all) that a commit of HEAD's history
 * deleted (renames counted as deletions), or that the working tree lacks though the index has
 * them, and for which `keep` holds, each with its text before its latest deletion. None before
 * the first commit, or when git cannot say.
 */
export async function deletedFilesInHistory(
  top: string,
  pathspecs: readonly string[],
  keep: (file: string) => boolean,
): Promise<DeletedText[]> {
  if (pathspecs.length === 0) return [];
  const git = simpleGit({ baseDir: top });
  const literal = pathspecs.map((spec) => `:(literal)${spec}`);
  const objects = new Map<string, string>();
  try {
    const log = await git.raw([
      '-c',
      'core.quotePath=false',
      'log',
      '--no-renames',
      '--diff-filter=D',
      '--name-only',
      '--format=%x01%H',
      'HEAD',
      '--',
      ...literal,
    ]);
    let commit: string | undefined;
    for (const line of log.split('\n')) {
      if (line.startsWith('\u0001')) commit = line.slice(1);
      else if (line !== '' && commit !== undefined && !line.startsWith('"') && keep(line))
        // The latest deletion comes first: the text the file had before it.
        if (!objects.has(line)) objects.set(line, `${commit}^:${line}`);
    }
    const unstaged = await git.raw(['ls-files', '--deleted', '-z', '--', ...literal]);
    for (const file of unstaged.split('\0'))
      if (file !== '' && !file.includes('\n') && keep(file)) objects.set(file, `:${file}`);
  } catch {
    return [];
  }
  const texts = await readBlobs(top, [...objects.values()]);
  return [...objects].flatMap(([file, object]) => {
    const text = texts.get(object);
    return text === undefined ? [] : [{ file, text }];
  });
}
