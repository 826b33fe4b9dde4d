// How a command that ends in an error tells it: the tool's own errors as one `Error:` line (and,
// when JSON was asked for, as JSON on stdout too, so a script never reads an empty stdout); any
// other error as an internal error, with a stack trace under --debug.
import {
  AuthError,
  CatalogError,
  ContractsError,
  ForbiddenError,
  InternalError,
  NetworkError,
  NotFoundError,
  StalePlanError,
  TimeoutError,
} from '../model/errors.js';
import { printable } from '../support/printable.js';
import { formatProblem } from '../model/problem.js';
import { SettingsError } from '../settings/settled.js';
import type { Io } from './io.js';

/** Whether `argv` asks for JSON on stdout (`--json`, `--format json`). */
function asksForJson(argv: readonly string[]): boolean {
  return argv.some(
    (arg, i) =>
      arg === '--json' || arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json'),
  );
}

/** Whether `argv` asks for SARIF on stdout (`--format sarif`). */
function asksForSarif(argv: readonly string[]): boolean {
  return argv.some(
    (arg, i) => arg === '--format=sarif' || (arg === '--format' && argv[i + 1] === 'sarif'),
  );
}

/** What kind of error it is, for machine output: `config`, `catalog`, `auth`, `network`, … */
function errorType(error: ContractsError): string {
  if (error instanceof AuthError) return 'auth';
  if (error instanceof ForbiddenError) return 'forbidden';
  if (error instanceof NotFoundError) return 'not-found';
  if (error instanceof CatalogError) return 'catalog';
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof NetworkError) return 'network';
  if (error instanceof StalePlanError) return 'stale-plan';
  if (error instanceof SettingsError) return 'settings';
  return 'config';
}

export async function reportError(error: unknown, argv: readonly string[], io: Io): Promise<void> {
  const debug = argv.includes('--debug') || (io.env.CONTRACTS_DEBUG ?? '') !== '';
  if (error instanceof ContractsError && !(error instanceof InternalError)) {
    // A broken settings file: each problem at its line first, as a contract file's are said.
    if (error instanceof SettingsError)
      for (const problem of error.problems) io.stderr.write(`${formatProblem(problem)}\n`);
    io.stderr.write(`Error: ${printable(error.message)}\n`);
    // SARIF asked for: a log whose run says it failed, never an empty file for code scanning.
    if (asksForSarif(argv)) {
      const { sarifLog } = await import('../plan/sarif-results.js');
      const { VERSION } = await import('../support/version.js');
      io.stdout.write(`${JSON.stringify(sarifLog([], VERSION, error.message), null, 2)}\n`);
    }
    if (asksForJson(argv))
      io.stdout.write(
        `${JSON.stringify({ error: { type: errorType(error), message: error.message, ...(error instanceof SettingsError ? { problems: error.problems } : {}) } }, null, 2)}\n`,
      );
    return;
  }
  const text =
    error instanceof Error
      ? debug
        ? (error.stack ?? error.message)
        : error.message
      : String(error);
  io.stderr.write(
    `Internal error: ${debug ? text : printable(text)}\n${debug ? '' : 'Run again with --debug for details, and please report it.\n'}`,
  );
}
