// What `--prune` may delete in a run of `plan` or `apply`: with --changed-since, only contracts
// managed by the files that change deleted or changed; otherwise every managed contract whose file
// is gone from the folders planned (pipeline/plan-pipeline.ts).
import path from 'node:path';
import { deletedContractFiles } from '../pipeline/git.js';
import type { PlanRequest } from '../pipeline/plan-pipeline.js';
import type { Io } from './io.js';

export async function pruneScope(
  options: {
    changedSince?: string | undefined;
    args?: readonly string[];
    paths?: readonly string[];
  },
  io: Io,
  changed: ReadonlySet<string> | undefined,
): Promise<NonNullable<PlanRequest['prune']>> {
  if (options.changedSince === undefined || changed === undefined) return {};
  const under = options.paths ?? options.args ?? [];
  const deleted =
    (await deletedContractFiles(io.cwd, options.changedSince, undefined, under)) ?? [];
  return {
    within: new Set([...changed, ...deleted.map((file) => path.resolve(io.cwd, file.file))]),
    deletedNames: new Set(deleted.flatMap((file) => file.fullyQualifiedName ?? [])),
  };
}
