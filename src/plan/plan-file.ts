// Saved plans: written whole or not at all, only ever as a regular file, and checked against
// schemas/plan.schema.json and their own checksum when read.
import { randomBytes } from 'node:crypto';
import { lstat, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import validate from './plan-validator.mjs';
import { ConfigError } from '../model/errors.js';
import { planChecksum } from './create-plan.js';
import { summarize, type Plan } from './types.js';

function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The file a plan saved at `file` is written to: `file` itself when it is a regular file or does
 * not exist yet, the file a symbolic link points to when that is a regular file. Anything else
 * (a FIFO, a device, a directory, a link to one of them) is refused before anything is written.
 */
export async function planOutputTarget(file: string): Promise<string> {
  let linked: string = file;
  try {
    const own = await lstat(file);
    if (own.isFile()) return file;
    if (own.isSymbolicLink()) {
      linked = await realpath(file).catch(() => {
        throw new ConfigError(
          `cannot save the plan to ${file}: it is a symbolic link to a path that does not exist; give a regular file`,
        );
      });
      const target = await stat(linked);
      if (target.isFile()) return linked;
      throw new ConfigError(
        `cannot save the plan to ${file}: it links to ${linked}, which is ${kindOf(target)}; give a regular file`,
      );
    }
    throw new ConfigError(
      `cannot save the plan to ${file}: it is ${kindOf(own)}, not a regular file; give a regular file`,
    );
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new ConfigError(`cannot save the plan to ${file}: ${(error as Error).message}`);
    }
  }
  const folder = path.dirname(file);
  const parent = await stat(folder).catch(() => undefined);
  if (parent === undefined || !parent.isDirectory())
    throw new ConfigError(
      `cannot save the plan to ${file}: the folder ${folder} does not exist; create it first`,
    );
  return file;
}

export async function writePlanFile(file: string, plan: Plan): Promise<void> {
  const target = await planOutputTarget(file);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, `${JSON.stringify(plan, null, 2)}\n`, { flag: 'wx' });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw new ConfigError(`cannot write the plan to ${file}: ${(error as Error).message}`);
  }
}

export async function readPlanFile(file: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT'
        ? `cannot read the plan ${file}: there is no such file (make one with contracts plan --out FILE)`
        : code === 'EISDIR'
          ? `cannot read the plan ${file}: it is a folder, not a plan file`
          : `cannot read the plan ${file}: ${(error as Error).message}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file} is not a plan: it is not JSON`);
  }
  if (!validate(value)) {
    const first = validate.errors?.[0];
    const where =
      first?.instancePath === undefined || first.instancePath === ''
        ? 'the file'
        : first.instancePath;
    const what =
      first?.keyword === 'required'
        ? `${where} lacks ${String((first.params as { missingProperty?: unknown }).missingProperty)}`
        : `${where} ${first?.message ?? 'is not what a plan holds'}`;
    const isPlan = value !== null && typeof value === 'object' && 'formatVersion' in value;
    throw new ConfigError(
      isPlan
        ? `${file} is not a plan this version can apply: ${what}; make a new plan with contracts plan --out`
        : `${file} is not a plan (${what}); a plan file is what contracts plan --out writes`,
    );
  }
  const plan = value as Plan;
  const odd = inconsistency(plan);
  if (odd !== undefined)
    throw new ConfigError(
      `${file} is not a plan contracts plan writes: ${odd}; make a new plan. Nothing was sent.`,
    );
  if (planChecksum(plan) !== plan.checksum) {
    throw new ConfigError(
      `${file} does not match its checksum: the plan was changed after it was made; make a new plan. Nothing was sent.`,
    );
  }
  return plan;
}

/**
 * What in `plan`, valid by its schema, no plan made by this tool holds: a contract twice, a change
 * without the live id, version or hash it was made from, a create without its body, a summary that
 * does not count its changes.
 */
function inconsistency(plan: Plan): string | undefined {
  const seen = new Set<string>();
  for (const change of plan.changes) {
    const name = change.fullyQualifiedName;
    if (seen.has(name)) return `it names ${name} twice`;
    seen.add(name);
    if (
      (change.action === 'update' || change.action === 'delete') &&
      (change.id === null || change.liveVersion === null || change.liveHash === null)
    )
      return `its ${change.action === 'delete' ? 'deletion' : 'change'} of ${name} lacks the live id, version or hash it was made from`;
    if (change.action === 'create' && (change.create == null || change.id !== null))
      return `its create of ${name} has no body, or names an id`;
    if (change.action !== 'update' && change.patch.length > 0)
      return `its ${change.action} of ${name} carries a patch`;
  }
  const counted = summarize(plan.changes);
  const said = plan.summary as unknown as Record<string, unknown>;
  if (Object.entries(counted).some(([action, count]) => (said[action] ?? 0) !== count))
    return 'its summary does not count its changes';
  return undefined;
}
