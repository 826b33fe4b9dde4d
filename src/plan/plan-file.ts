// Saved plans: written whole or not at all, and checked against schemas/plan.schema.json when read.
import { Ajv } from 'ajv';
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import planSchema from '../../schemas/plan.schema.json' with { type: 'json' };
import { ConfigError } from '../errors.js';
import type { Plan } from './types.js';

export async function writePlanFile(file: string, plan: Plan): Promise<void> {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, `${JSON.stringify(plan, null, 2)}\n`, { flag: 'wx' });
    await rename(temp, file);
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
    throw new ConfigError(`cannot read the plan ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${file} is not a plan: it is not JSON`);
  }
  const validate = new Ajv({ allErrors: false, strict: false }).compile(planSchema);
  if (!validate(value)) {
    const first = validate.errors?.[0];
    throw new ConfigError(
      `${file} is not a plan this version can apply: ${first?.instancePath ?? ''} ${first?.message ?? ''}`.trim(),
    );
  }
  return value as unknown as Plan;
}
