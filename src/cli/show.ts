// `contracts show PLANFILE`: render a saved plan (human, markdown or JSON) without the catalog,
// as Terraform's `show` does. The file is checked like apply checks it (schema and checksum).
import path from 'node:path';
import { readPlanFile } from '../plan/plan-file.js';
import { renderPlanHuman } from '../views/render-human.js';
import { renderPlanMarkdown } from '../views/render-markdown.js';
import { EXIT_OK } from './exit-codes.js';
import { type Io } from './io.js';
import { colorsFor } from '../views/colors.js';
import type { Format } from '../views/format.js';

export interface ShowOptions {
  planFile: string;
  format: Extract<Format, 'human' | 'json' | 'markdown'>;
  color: boolean;
}

export async function runShow(options: ShowOptions, io: Io): Promise<number> {
  const plan = await readPlanFile(path.resolve(io.cwd, options.planFile));
  if (options.format === 'json') io.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  else if (options.format === 'markdown') io.stdout.write(renderPlanMarkdown(plan));
  else io.stdout.write(renderPlanHuman(plan, colorsFor(io.stdout, io.env, options.color)));
  return EXIT_OK;
}
