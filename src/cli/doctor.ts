// `contracts doctor [--fix]`: the doctor operation, its report rendered, exit 0 when plan and apply
// can work and 1 otherwise.
import { doctorOperation, doctorPasses, type DoctorOptions } from '../operations/doctor.js';
import { colorsFor } from '../views/colors.js';
import { renderDoctorHuman, renderDoctorJson } from '../views/doctor.js';
import { EXIT_ERROR, EXIT_OK } from './exit-codes.js';
import type { Io } from './io.js';

export interface DoctorCliOptions extends DoctorOptions {
  json: boolean;
  color: boolean;
}

export async function runDoctor(options: DoctorCliOptions, io: Io): Promise<number> {
  const report = await doctorOperation(options, io.env, io.cwd);
  io.stdout.write(
    options.json
      ? renderDoctorJson(report)
      : renderDoctorHuman(report, colorsFor(io.stdout, io.env, options.color)),
  );
  return doctorPasses(report) ? EXIT_OK : EXIT_ERROR;
}
