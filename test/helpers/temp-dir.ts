// Builds a temporary directory from `{ path: content }` and removes it afterwards.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
  dir: string;
  remove(): Promise<void>;
}

export async function tempDir(files: Record<string, string | Uint8Array> = {}): Promise<TempDir> {
  const dir = await mkdtemp(path.join(tmpdir(), 'contracts-test-'));
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(dir, name);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, content);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
